import { Elysia } from 'elysia';
import { heartbeatJson } from '../outward';
import { authenticateApiRequest } from './api-auth';
import type { HttpDeps } from './deps';
import { errorResponse, jsonResponse } from './respond';

/**
 * docs/on-call.md "Heartbeats":
 * - GET|HEAD|POST /heartbeat/:token  a ping; any body and content type (an Alertmanager
 *   Watchdog receiver, a cron curl). The token is the credential: an unknown one is 404.
 * - GET /api/heartbeats              the account's heartbeats, authenticated like
 *   GET /api/alerts/{id} (API key with secret or signature, or the webhook key).
 */
export function heartbeatRoutes(deps: HttpDeps) {
  const service = deps.services.heartbeats;
  const log = deps.log.child({ component: 'heartbeats' });

  const ping = async ({ params }: { params: { token: string } }) => {
    const r = await service.ping(params.token);
    if (!r) return errorResponse('heartbeat_not_found');
    if (r.resolvedAlertId || r.cancelledCallIds.length > 0) {
      log.info({ heartbeat: r.heartbeat.id, alert: r.resolvedAlertId, cancelled: r.cancelledCallIds }, 'heartbeat back up: alert resolved');
    }
    return jsonResponse(200, { status: 'success', message: 'Heartbeat received' });
  };

  // The body is never read: whatever a pinger sends, the path says everything.
  return new Elysia({ name: 'heartbeats' })
    .get('/heartbeat/:token', ping)
    .head('/heartbeat/:token', ping)
    .post('/heartbeat/:token', ping, { parse: 'none' })
    .get('/api/heartbeats', async ({ request }) => {
      const auth = await authenticateApiRequest(deps, request);
      if (!auth.ok) return auth.response;
      const all = await deps.store.heartbeats.list(auth.account.id);
      return jsonResponse(200, { status: 'success', message: 'Heartbeats found', heartbeats: all.map(heartbeatJson) });
    });
}
