import { Elysia } from 'elysia';
import { decodeBody } from '../intake';
import type { WindowResult } from '../maintenance';
import { maintenanceJson } from '../outward';
import { authenticateApiRequest } from './api-auth';
import type { HttpDeps } from './deps';
import { readBodyLimited } from './read-body';
import { errorResponse, jsonResponse } from './respond';

/**
 * Maintenance windows over HTTP (docs/on-call.md "Maintenance windows"), authenticated like
 * GET /api/calls/{id} but with the API key only (its secret, or a signature: over the raw
 * body for POST, over the path otherwise); the webhook key that monitoring tools hold cannot
 * silence alerts.
 * - POST   /api/maintenance       {"start": ISO, "end": ISO, "reason": "…", "match": ["key=db-", …]}
 * - GET    /api/maintenance       the account's windows not ended yet (`?all=1`: every one)
 * - GET    /api/maintenance/:id   one window
 * - DELETE /api/maintenance/:id   ends it now
 * Another account's window is 404 `Maintenance window not found`, like a missing one.
 */
export function maintenanceRoutes(deps: HttpDeps) {
  const service = deps.services.maintenance;

  const answer = (r: WindowResult, message: string, extra: Record<string, unknown> = {}) => {
    if (!r.ok) return r.code === 'account_not_found' ? errorResponse('invalid_api_credentials') : errorResponse(r.code, { detail: r.detail });
    return jsonResponse(200, { status: 'success', message, window: maintenanceJson(r.window, deps.clock()), ...extra });
  };

  return new Elysia({ name: 'maintenance' })
    .post(
      '/api/maintenance',
      async ({ request }) => {
        const body = await readBodyLimited(request, deps.config.http.max_body_bytes);
        if (body === null) return errorResponse('body_too_large');
        const auth = await authenticateApiRequest(deps, request, { body, apiKeyOnly: true });
        if (!auth.ok) return auth.response;
        const decoded = decodeBody(body, request.headers.get('content-type'));
        if (!decoded.ok) return errorResponse('malformed_request');
        const f = decoded.fields;
        // A form sends one `match` as a string.
        const input = { ...f, match: typeof f.match === 'string' ? [f.match] : f.match };
        const r = await service.create(auth.account.id, input);
        return answer(r, 'Maintenance window created', r.ok ? { cancelled_call_ids: r.start?.cancelledCallIds ?? [] } : {});
      },
      { parse: 'none' },
    )
    .get('/api/maintenance', async ({ request, query }) => {
      const auth = await authenticateApiRequest(deps, request, { apiKeyOnly: true });
      if (!auth.ok) return auth.response;
      const all = query.all === '1' || query.all === 'true';
      const now = deps.clock();
      const windows = (await service.list(auth.account.id, { all })).map((w) => maintenanceJson(w, now));
      return jsonResponse(200, { status: 'success', message: 'Maintenance windows', windows });
    })
    .get('/api/maintenance/:id', async ({ params, request }) => {
      const auth = await authenticateApiRequest(deps, request, { apiKeyOnly: true });
      if (!auth.ok) return auth.response;
      return answer(await service.get(auth.account.id, params.id), 'Maintenance window found');
    })
    .delete(
      '/api/maintenance/:id',
      async ({ params, request }) => {
        const auth = await authenticateApiRequest(deps, request, { apiKeyOnly: true });
        if (!auth.ok) return auth.response;
        return answer(await service.remove(auth.account.id, params.id), 'Maintenance window deleted');
      },
      { parse: 'none' },
    );
}
