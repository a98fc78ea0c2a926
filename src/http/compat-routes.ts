import { Elysia } from 'elysia';
import { errorFor } from '../errors';
import {
  acceptCompat,
  authenticate,
  isAlertActionName,
  lookupsFor,
  readAlertAction,
  readCreateAlert,
  readGenieKey,
  readPagerDutyChange,
  readPagerDutyEvent,
  type AlertActionName,
  type CompatAction,
} from '../intake';
import { CHANGE_PROCESSED, invalidEvent, opsgenieAnswer, opsgenieJson, pagerDutyAnswer, requestStatus, unprocessable, type OpsgenieAnswer, type PagerDutyAnswer } from '../outward';
import { compatEdge, type CompatEdge } from './compat-edge';
import type { HttpDeps } from './deps';
import { opsgenieReadRoutes } from './opsgenie-reads';
import { JSON_TYPE, errorResponse, requestIdFor } from './respond';

/** Where a processed Opsgenie request's status is kept for `GET /v2/alerts/requests/{id}` (the idempotency table, 24 h). */
const REQUEST_STATUS = 'opsgenie-request';

/**
 * docs/integrations.md "PagerDuty and Opsgenie compatible intake": PagerDuty's Events API v2 and
 * Opsgenie's Alert API on the appliance's own address, keyed by the account's webhook key, answered
 * as those services answer. Everything else is the webhook's (src/intake/compat-intake.ts).
 */
export function compatRoutes(deps: HttpDeps) {
  const opsgenie = opsgenieHandlers(deps);
  return (
    new Elysia({ name: 'compat' })
      .post('/v2/enqueue', ({ request, server, query }) => pagerDutyEnqueue(deps, request, server?.requestIP(request)?.address, query), { parse: 'none' })
      .post('/v2/change/enqueue', ({ request, server }) => pagerDutyChange(deps, request, server?.requestIP(request)?.address), { parse: 'none' })
      .post('/v2/alerts', ({ request, server, query }) => opsgenie.create(request, server?.requestIP(request)?.address, query), { parse: 'none' })
      .post(
        '/v2/alerts/:identifier/:action',
        ({ request, server, query, params }) => opsgenie.act(request, server?.requestIP(request)?.address, query, params.identifier, params.action),
        { parse: 'none' },
      )
      // Alertmanager's `update_alerts: true` follows each create with these: the create carried the text already.
      .put(
        '/v2/alerts/:identifier/:field',
        ({ request, server, query, params }) =>
          params.field === 'message' || params.field === 'description'
            ? opsgenie.act(request, server?.requestIP(request)?.address, query, params.identifier, 'notes')
            : errorResponse('not_found'),
        { parse: 'none' },
      )
      .get('/v2/alerts/requests/:requestId', ({ request, params }) => opsgenie.status(request, params.requestId))
      // What scripts read and ping (docs/integrations.md "Scripts written for Opsgenie and PagerDuty").
      .use(opsgenieReadRoutes(deps))
  );
}

/** PagerDuty's edge (compat-edge.ts), and its answer: PagerDuty's JSON, recorded with its message and errors. */
async function pagerDutyEdge(deps: HttpDeps, endpoint: string, request: Request, socketAddress: string | undefined) {
  const edge = await compatEdge(deps, endpoint, request, socketAddress, (code, headers) => {
    const { status, message } = errorFor(code);
    return { status, message, response: errorResponse(code, { headers }) };
  });
  if (edge instanceof Response) return edge;
  const answer = (a: PagerDutyAnswer, who?: Parameters<CompatEdge['record']>[2], refusal?: string) => {
    const errors = Array.isArray(a.body.errors) ? `: ${a.body.errors.join(', ')}` : '';
    edge.record(a.status, `${String(a.body.message)}${errors}`, who, refusal);
    return new Response(JSON.stringify(a.body), { status: a.status, headers: { 'content-type': JSON_TYPE } });
  };
  return { ...edge, answer };
}

async function pagerDutyEnqueue(deps: HttpDeps, request: Request, socketAddress: string | undefined, query: Record<string, string | undefined>): Promise<Response> {
  const edge = await pagerDutyEdge(deps, '/v2/enqueue', request, socketAddress);
  if (edge instanceof Response) return edge;
  const answer = edge.answer;
  const event = readPagerDutyEvent(edge.body);
  if (!event.ok) return answer(invalidEvent(event.errors), undefined, 'malformed_request');
  const r = await acceptCompat(deps.intake, {
    api: 'pagerduty',
    webhookKey: event.routingKey,
    action: event.action,
    query,
    idempotencyKey: request.headers.get('idempotency-key') || null,
  });
  return answer(pagerDutyAnswer(r.outcome, event.dedupKey), r, r.outcome.ok ? undefined : r.outcome.code);
}

/**
 * `POST /v2/change/enqueue`: a PagerDuty change event (a deploy, a config change) is
 * information, never a page. The routing key is checked as an alert event's is (an unknown
 * one is PagerDuty's `Invalid routing key`); accepted, it is recorded in the API history and
 * calls nobody.
 */
async function pagerDutyChange(deps: HttpDeps, request: Request, socketAddress: string | undefined): Promise<Response> {
  const edge = await pagerDutyEdge(deps, '/v2/change/enqueue', request, socketAddress);
  if (edge instanceof Response) return edge;
  const answer = edge.answer;
  const change = readPagerDutyChange(edge.body);
  if (!change.ok) return answer(invalidEvent(change.errors), undefined, 'malformed_request');
  const r = await acceptCompat(deps.intake, {
    api: 'pagerduty',
    webhookKey: change.routingKey,
    action: { kind: 'ignore' },
    query: {},
    idempotencyKey: request.headers.get('idempotency-key') || null,
  });
  if (!r.outcome.ok) return answer(pagerDutyAnswer(r.outcome, ''), r, r.outcome.code);
  return answer(CHANGE_PROCESSED, r);
}

function opsgenieHandlers(deps: HttpDeps) {
  const started = new WeakMap<Request, number>();
  const reply = (request: Request, a: OpsgenieAnswer) => {
    const took = (performance.now() - (started.get(request) ?? performance.now())) / 1000;
    return new Response(opsgenieJson(a.body, took, requestIdFor(request)), { status: a.status, headers: { 'content-type': JSON_TYPE } });
  };
  const edgeOf = (request: Request, socketAddress: string | undefined, endpoint: string) => {
    started.set(request, performance.now());
    return compatEdge(deps, endpoint, request, socketAddress, (code, headers) => {
      const { status, message } = errorFor(code);
      const r = reply(request, { status, body: { message, code } });
      for (const [k, v] of Object.entries(headers)) r.headers.set(k, v);
      return { status, message, response: r };
    });
  };

  /** Shared by create and the alert actions: key, body, the intake, the request's status, the answer. */
  const run = async (
    request: Request,
    socketAddress: string | undefined,
    endpoint: string,
    query: Record<string, string | undefined>,
    read: (body: Uint8Array) => { ok: true; action: CompatAction; alias: string | null } | { ok: false; errors: Record<string, string> },
    noteAction?: AlertActionName,
  ): Promise<Response> => {
    const edge = await edgeOf(request, socketAddress, endpoint);
    if (edge instanceof Response) return edge;
    const answer = (a: OpsgenieAnswer, who?: Parameters<CompatEdge['record']>[2], refusal?: string) => {
      edge.record(a.status, String(a.body.result ?? a.body.message), who, refusal);
      return reply(request, a);
    };
    const key = readGenieKey(request.headers.get('authorization'));
    if (!key.ok) return answer({ status: 401, body: { message: key.message } }, undefined, 'invalid_webhook_key');
    const parsed = read(edge.body);
    if (!parsed.ok) return answer(unprocessable(parsed.errors), undefined, 'malformed_request');
    const r = await acceptCompat(deps.intake, {
      api: 'opsgenie',
      webhookKey: key.key,
      action: parsed.action,
      query,
      idempotencyKey: request.headers.get('idempotency-key') || null,
    });
    if (r.outcome.ok && r.credentialId) {
      // Committed before the 202, so a tool that asks at once (Zabbix's Opsgenie script) finds it.
      const status = requestStatus(parsed.action.kind, r.outcome.alertId, parsed.alias, deps.clock(), noteAction);
      const credentialId = r.credentialId;
      await deps.store.transaction((tx) => tx.idempotency.save(credentialId, REQUEST_STATUS, requestIdFor(request), status, deps.clock()));
    }
    return answer(opsgenieAnswer(r.outcome), r, r.outcome.ok ? undefined : r.outcome.code);
  };

  return {
    create: (request: Request, socketAddress: string | undefined, query: Record<string, string | undefined>) => run(request, socketAddress, '/v2/alerts', query, readCreateAlert),

    act: (request: Request, socketAddress: string | undefined, query: Record<string, string | undefined>, identifier: string, action: string) => {
      if (!isAlertActionName(action)) return errorResponse('not_found');
      return run(
        request,
        socketAddress,
        `/v2/alerts/{identifier}/${action}`,
        query,
        (body) => {
          const r = readAlertAction(identifier, query.identifierType, action, body);
          return r.ok ? { ...r, alias: query.identifierType?.toLowerCase() === 'alias' ? identifier : null } : r;
        },
        action,
      );
    },

    /** `GET /v2/alerts/requests/{requestId}`: how a request of this key was processed. */
    status: async (request: Request, requestId: string): Promise<Response> => {
      started.set(request, performance.now());
      const key = readGenieKey(request.headers.get('authorization'));
      if (!key.ok) return reply(request, { status: 401, body: { message: key.message } });
      const lookups = await lookupsFor(deps.store).fresh();
      const authn = await authenticate(deps.store, lookups, { kind: 'webhook_key', webhookKey: key.key });
      if (!authn.ok) return reply(request, { status: 401, body: { message: 'Could not authenticate' } });
      const data = await deps.store.idempotency.find(authn.credential.id, REQUEST_STATUS, requestId, deps.clock());
      if (!data) return reply(request, { status: 404, body: { message: 'Request not found. It might not be processed, yet.' } });
      return reply(request, { status: 200, body: { data } });
    },
  };
}
