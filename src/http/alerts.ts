import { Elysia } from 'elysia';
import type { AlertActionResult } from '../alerts';
import { alertJson, ownAlertJson } from '../outward';
import { authenticateApiRequest } from './api-auth';
import type { HttpDeps } from './deps';
import { errorResponse, jsonResponse } from './respond';

/** Who an action through the API is recorded as (alerts.acknowledged_by, state_reason). */
const BY = 'api';

/**
 * The alert API (docs/http-api.md "GET /api/alerts/{id}, …"), authenticated like GET
 * /api/calls/{id} (API key with secret or signature, or the webhook key):
 * - GET  /api/alerts/:id              the alert and its calls
 * - POST /api/alerts/:id/acknowledge  acknowledged by `api`; its waiting calls end `cancelled`
 * - POST /api/alerts/:id/resolve      resolved; the same for its calls
 * Another account's alert is 404 `Alert not found`, like a missing one. Acting on a closed
 * alert is not an error (acknowledgements and resolves arrive late or twice): it answers
 * the alert as it is, with `changed: false`.
 */
export function alertRoutes(deps: HttpDeps) {
  const actions = deps.services.alerts;

  const answerAction = async (r: AlertActionResult, done: string) => {
    if (!r.ok) return errorResponse(r.code);
    return jsonResponse(200, {
      status: 'success',
      message: r.changed ? done : `Alert already ${r.alert.state}`,
      changed: r.changed,
      alert_id: r.alert.id,
      cancelled_call_ids: r.cancelledCallIds,
      alert: await alertJson(deps.store, r.alert),
    });
  };

  return new Elysia({ name: 'alerts' })
    .get('/api/alerts/:id', async ({ params, request }) => {
      const auth = await authenticateApiRequest(deps, request);
      if (!auth.ok) return auth.response;
      const alert = await ownAlertJson(deps.store, auth.account.id, params.id);
      return alert ? jsonResponse(200, { status: 'success', message: 'Alert found', alert }) : errorResponse('alert_not_found');
    })
    .post(
      '/api/alerts/:id/acknowledge',
      async ({ params, request }) => {
        const auth = await authenticateApiRequest(deps, request);
        if (!auth.ok) return auth.response;
        return answerAction(await actions.acknowledge(auth.account.id, params.id, BY), 'Alert acknowledged');
      },
      // No body is read: the path says everything.
      { parse: 'none' },
    )
    .post(
      '/api/alerts/:id/resolve',
      async ({ params, request }) => {
        const auth = await authenticateApiRequest(deps, request);
        if (!auth.ok) return auth.response;
        return answerAction(await actions.resolve(auth.account.id, params.id, BY), 'Alert resolved');
      },
      { parse: 'none' },
    );
}
