import { Elysia } from 'elysia';
import { errorBody } from '../errors';
import { decodeBody } from '../intake';
import { oncallJson, overrideJson, scheduleJson } from '../outward';
import { icsUrl, parseInstant, scheduleCalendar, type ScheduleChange } from '../schedules';
import { authenticateApiRequest } from './api-auth';
import type { HttpDeps } from './deps';
import { readBodyLimited } from './read-body';
import { errorResponse, jsonResponse } from './respond';

/** How far ahead the calendar feed reaches (docs/on-call.md "On-call schedules"). */
const FEED_DAYS = 60;

/**
 * On-call schedules over HTTP (docs/on-call.md "On-call schedules"):
 * - GET /api/schedules/:name/oncall[?at=ISO]  who is on call, authenticated like
 *   GET /api/alerts/{id} (API key with secret or signature, or the webhook key); another
 *   account's schedule is 404 like a missing one.
 * - GET /schedules/<token>.ics  the next 60 days' shifts as iCalendar; the unguessable
 *   token is the only credential, so calendar apps can subscribe to the URL as it is.
 * - PUT /api/schedules/:name  {"name"?, "time_zone"?, "layers"?, "handoff_call"?}: changed in place (id, feed URL
 *   and overrides stay); DELETE /api/schedules/:name/overrides/:id  one override. Both with the
 *   API key only (its secret, or a signature), as DELETE /api/schedules/:name.
 */
export function scheduleRoutes(deps: HttpDeps) {
  const service = deps.services.schedules;
  return new Elysia({ name: 'schedules' })
    .get('/api/schedules/:name/oncall', async ({ params, request }) => {
      const auth = await authenticateApiRequest(deps, request);
      if (!auth.ok) return auth.response;
      const atParam = new URL(request.url).searchParams.get('at');
      let at: number | undefined;
      if (atParam !== null) {
        const parsed = parseInstant(atParam);
        if (parsed === null) return errorResponse('malformed_request', { detail: 'at must be an ISO 8601 instant with a zone' });
        at = parsed;
      }
      const r = await service.oncall(auth.account.id, decodeURIComponent(params.name), at);
      if (!r.ok) return errorResponse('schedule_not_found');
      return jsonResponse(200, { status: 'success', message: 'On call', ...oncallJson(r.oncall) });
    })
    .put(
      '/api/schedules/:name',
      async ({ params, request }) => {
        const body = await readBodyLimited(request, deps.config.http.max_body_bytes);
        if (body === null) return errorResponse('body_too_large');
        const auth = await authenticateApiRequest(deps, request, { body, apiKeyOnly: true });
        if (!auth.ok) return auth.response;
        const decoded = decodeBody(body, request.headers.get('content-type'));
        if (!decoded.ok) return errorResponse('malformed_request');
        const f = decoded.fields as Record<string, unknown>;
        // docs/on-call.md "Hand-off calls": a boolean (a form's "true"/"false" too), nothing else.
        const handoff = f.handoff_call === undefined ? undefined : f.handoff_call === true || f.handoff_call === 'true' ? true : f.handoff_call === false || f.handoff_call === 'false' ? false : null;
        if (handoff === null) return errorResponse('invalid_schedule', { detail: 'handoff_call: true or false' });
        const change: ScheduleChange = {
          ...(typeof f.name === 'string' ? { name: f.name } : {}),
          ...(typeof f.time_zone === 'string' ? { timeZone: f.time_zone } : {}),
          ...(f.layers !== undefined ? { layers: f.layers } : {}),
          ...(handoff !== undefined ? { handoffCall: handoff } : {}),
        };
        const r = await service.update(auth.account.id, decodeURIComponent(params.name), change);
        if (!r.ok && r.code === 'schedule_in_use')
          return jsonResponse(409, { ...errorBody(r.code), used_by: r.usedBy.map((u) => ({ kind: u.kind, id: u.id, name: u.name })) });
        if (!r.ok) return 'problem' in r ? errorResponse(r.code, { detail: r.problem }) : errorResponse(r.code === 'account_not_found' ? 'invalid_api_credentials' : r.code);
        return jsonResponse(200, { status: 'success', message: 'Schedule updated', schedule: scheduleJson(r.schedule, icsUrl(deps.config, r.schedule.icsToken)) });
      },
      { parse: 'none' },
    )
    .delete(
      '/api/schedules/:name/overrides/:id',
      async ({ params, request }) => {
        const auth = await authenticateApiRequest(deps, request, { apiKeyOnly: true });
        if (!auth.ok) return auth.response;
        const r = await service.removeOverride(auth.account.id, decodeURIComponent(params.name), decodeURIComponent(params.id));
        if (!r.ok) return errorResponse(r.code === 'override_not_found' ? 'override_not_found' : 'schedule_not_found');
        return jsonResponse(200, { status: 'success', message: 'Override removed', override: overrideJson(r.override) });
      },
      { parse: 'none' },
    )
    .get('/schedules/:file', async ({ params }) => {
      const m = /^([0-9A-Za-z]{32})\.ics$/.exec(params.file);
      const schedule = m ? await deps.store.schedules.findByIcsToken(m[1]!) : null;
      if (!schedule) return errorResponse('not_found');
      const now = deps.clock();
      const shifts = await service.shifts(schedule, now, now + FEED_DAYS * 86_400_000);
      return new Response(scheduleCalendar({ scheduleId: schedule.id, name: schedule.name, shifts, now }), {
        headers: { 'content-type': 'text/calendar; charset=utf-8', 'cache-control': 'private, max-age=300' },
      });
    });
}
