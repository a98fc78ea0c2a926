import { Elysia } from 'elysia';
import { ownCallStatus } from '../outward';
import { authenticateApiRequest } from './api-auth';
import type { HttpDeps } from './deps';
import { errorResponse, jsonResponse } from './respond';

/**
 * GET /api/calls/:id: state, attempts, times, last SIP code, acknowledgement, alert (issue 4 §7).
 * Checks in order: credentials (api-auth.ts: 401, 403) -> the caller's own call (404, also
 * for another account's).
 */
export function callStatusRoutes(deps: HttpDeps) {
  return new Elysia({ name: 'call-status' }).get('/api/calls/:id', async ({ params, request }) => {
    const auth = await authenticateApiRequest(deps, request);
    if (!auth.ok) return auth.response;
    const call = await ownCallStatus(deps.store, auth.account.id, params.id);
    return call ? jsonResponse(200, { status: 'success', message: 'Call found', call }) : errorResponse('call_not_found');
  });
}
