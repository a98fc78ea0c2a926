import { Elysia } from 'elysia';
import { oncallJson } from '../outward';
import { parseInstant, scheduleCalendar } from '../schedules';
import { authenticateApiRequest } from './api-auth';
import type { HttpDeps } from './deps';
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
