import { Elysia } from 'elysia';
import { callStatus, type StatusResult } from '../calls/status';
import type { HttpDeps } from './deps';
import { errorResponse, jsonResponse } from './respond';

/** contract: status and message per outcome of GET /api/calls/:id, in one place. */
function describe(r: StatusResult): Response {
  switch (r.code) {
    case 'FOUND':
      return jsonResponse(200, { status: 'success', message: 'Call found', call: r.call });
    case 'MISSING_CREDENTIALS':
      return errorResponse(401, 'Missing API credentials (X-Api-Key with X-Api-Secret or X-Signature)');
    case 'INVALID_API_CREDENTIALS':
      return errorResponse(403, 'Invalid API credentials');
    case 'INVALID_SIGNATURE':
      return errorResponse(403, 'Invalid signature');
    case 'NOT_FOUND':
      return errorResponse(404, 'Call not found');
  }
}

/** GET /api/calls/:id: state, attempts, times, last SIP code and acknowledgement (issue 4 §7). */
export function callStatusRoutes(deps: HttpDeps) {
  return new Elysia({ name: 'call-status' }).get('/api/calls/:id', ({ params, request }) => {
    const h = request.headers;
    return describe(
      callStatus(deps.store, deps.clock(), {
        callId: params.id,
        apiKey: h.get('x-api-key'),
        apiSecret: h.get('x-api-secret'),
        signature: { timestamp: h.get('x-timestamp'), signature: h.get('x-signature') },
        path: new URL(request.url).pathname,
      }),
    );
  });
}
