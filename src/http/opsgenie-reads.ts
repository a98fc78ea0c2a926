import { Elysia } from 'elysia';
import { errorFor } from '../errors';
import { authenticate, lookupsFor, readAlertCount, readAlertIdentifier, readAlertList, readGenieKey } from '../intake';
import {
  ALERT_NOT_FOUND,
  PONG,
  heartbeatNotFound,
  invalidParameters,
  opsgenieAlertJson,
  opsgenieAlertListJson,
  opsgenieCountJson,
  opsgenieJson,
  opsgeniePaging,
  type OpsgenieAnswer,
} from '../outward';
import { compatEdge, type CompatEdge } from './compat-edge';
import type { HttpDeps } from './deps';
import { JSON_TYPE, requestIdFor } from './respond';

type Query = Record<string, string | undefined>;

/**
 * docs/integrations.md "Scripts written for Opsgenie and PagerDuty": what scripts written for
 * Opsgenie read and ping, on the same paths, keyed by `Authorization: GenieKey <webhook key>`:
 * - GET /v2/alerts/{identifier}[?identifierType=id|alias|tiny]   one alert (404 Alert does not exist)
 * - GET /v2/alerts?query=…&limit=&offset=&sort=&order=         a page, with Opsgenie's paging links
 * - GET /v2/alerts/count?query=…                                 how many
 * - GET|POST|PUT|PATCH /v2/heartbeats/{name}/ping                the account's heartbeat of that name
 * Path parameters arrive decoded (Elysia): `Life%20is%20short` is the alias with spaces.
 * They share the compatible intake's edge (rate budget, body limit); only refusals go to the API
 * history, which is for alert requests: a script polling every minute would bury them.
 */
export function opsgenieReadRoutes(deps: HttpDeps) {
  const ping = (request: Request, address: string | undefined, name: string) =>
    serve(deps, request, address, '/v2/heartbeats/{name}/ping', async (accountId) => {
      const r = await deps.services.heartbeats.pingNamed(accountId, name);
      if (!r) return heartbeatNotFound(name);
      if (r.resolvedAlertId || r.cancelledCallIds.length > 0) {
        deps.log.info({ component: 'heartbeats', heartbeat: r.heartbeat.id, alert: r.resolvedAlertId, cancelled: r.cancelledCallIds }, 'heartbeat back up: alert resolved');
      }
      return PONG;
    });
  const pingRoute = ({ request, server, params }: { request: Request; server: { requestIP(r: Request): { address: string } | null } | null; params: { name: string } }) =>
    ping(request, server?.requestIP(request)?.address, params.name);

  return (
    new Elysia({ name: 'opsgenie-reads' })
      .get('/v2/alerts/count', ({ request, server, query }) =>
        serve(deps, request, server?.requestIP(request)?.address, '/v2/alerts/count', async (accountId) => {
          const r = readAlertCount(query as Query);
          if (!r.ok) return invalidParameters(r.errors);
          return opsgenieCountJson(await deps.store.alerts.countMatching(accountId, r.match));
        }),
      )
      .get('/v2/alerts', ({ request, server, query }) =>
        serve(deps, request, server?.requestIP(request)?.address, '/v2/alerts', async (accountId) => {
          const r = readAlertList(query as Query);
          if (!r.ok) return invalidParameters(r.errors);
          const [alerts, total] = await Promise.all([deps.store.alerts.search(accountId, r.match, r.page), deps.store.alerts.countMatching(accountId, r.match)]);
          return opsgenieAlertListJson(alerts, opsgeniePaging(new URL(request.url), r.page.offset, r.page.limit, total));
        }),
      )
      .get('/v2/alerts/:identifier', ({ request, server, query, params }) =>
        serve(deps, request, server?.requestIP(request)?.address, '/v2/alerts/{identifier}', async (accountId) => {
          const r = readAlertIdentifier(params.identifier, (query as Query).identifierType);
          if (!r.ok) return invalidParameters(r.errors);
          const alert = r.ref.by === 'id' ? await deps.store.alerts.getInAccount(accountId, r.ref.id) : await deps.store.alerts.latestByKey(accountId, r.ref.key);
          return alert ? opsgenieAlertJson(alert) : ALERT_NOT_FOUND;
        }),
      )
      // Opsgenie's Heartbeat API takes the ping with any of these methods, body ignored.
      .get('/v2/heartbeats/:name/ping', pingRoute)
      .post('/v2/heartbeats/:name/ping', pingRoute, { parse: 'none' })
      .put('/v2/heartbeats/:name/ping', pingRoute, { parse: 'none' })
      .patch('/v2/heartbeats/:name/ping', pingRoute, { parse: 'none' })
  );
}

/**
 * One read: the edge, the GenieKey of the account, then `answer` for that account, in Opsgenie's
 * JSON with `took` and `requestId`; the paging links of a list also as X-Paging-* headers.
 */
async function serve(
  deps: HttpDeps,
  request: Request,
  socketAddress: string | undefined,
  endpoint: string,
  answer: (accountId: string) => Promise<OpsgenieAnswer>,
): Promise<Response> {
  const started = performance.now();
  const respond = (a: OpsgenieAnswer) => {
    const headers: Record<string, string> = { 'content-type': JSON_TYPE };
    const paging = a.body.paging as Record<string, string> | undefined;
    if (paging) for (const [k, v] of Object.entries(paging)) headers[`x-paging-${k}`] = v;
    return new Response(opsgenieJson(a.body, (performance.now() - started) / 1000, requestIdFor(request)), { status: a.status, headers });
  };
  const edge = await compatEdge(deps, endpoint, request, socketAddress, (code, headers) => {
    const { status, message } = errorFor(code);
    const r = respond({ status, body: { message, code } });
    for (const [k, v] of Object.entries(headers)) r.headers.set(k, v);
    return { status, message, response: r };
  });
  if (edge instanceof Response) return edge;
  const refused = (a: OpsgenieAnswer, code: string, who?: Parameters<CompatEdge['record']>[2]) => {
    edge.record(a.status, String(a.body.message), who, code);
    return respond(a);
  };
  const key = readGenieKey(request.headers.get('authorization'));
  if (!key.ok) return refused({ status: 401, body: { message: key.message } }, 'invalid_webhook_key');
  const authn = await authenticate(deps.store, await lookupsFor(deps.store).fresh(), { kind: 'webhook_key', webhookKey: key.key });
  if (!authn.ok) return refused({ status: 401, body: { message: 'Could not authenticate' } }, 'invalid_webhook_key');
  const who = { accountId: authn.credential.accountId, credentialId: authn.credential.id };
  const a = await answer(who.accountId);
  if (a.status === 422) return refused(a, 'malformed_request', who);
  if (a.status === 404) return refused(a, 'not_found', who);
  return respond(a);
}
