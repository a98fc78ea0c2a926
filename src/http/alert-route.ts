import { errorBody, errorFor, type ErrorCode } from '../errors';
import type { IntakeRequest, IntakeResult, Outcome } from '../intake';
import type { Logger } from '../log';
import { SNS_CONFIRMATION_MESSAGE } from '../sources';
import { NO_TRUNK_WARNING } from '../calls';
import { clientIp } from './client-ip';
import type { HttpDeps } from './deps';
import { readBodyLimited } from './read-body';
import { requestRecorder } from './request-record';
import { errorResponse, jsonResponse, requestIdFor } from './respond';

export interface AlertRouteContext {
  request: Request;
  socketAddress: string | undefined;
  query: Record<string, string | undefined>;
}

/**
 * The shared edge of both alert endpoints: rate limit, body size, then the intake;
 * answers the outcome (a refusal through the error catalogue) and records it in the history.
 */
export async function handleAlert(
  deps: HttpDeps,
  endpoint: '/api/call' | '/webhook/receive',
  ctx: AlertRouteContext,
  accept: (req: IntakeRequest) => Promise<IntakeResult>,
): Promise<Response> {
  const { request } = ctx;
  const ip = clientIp(request, ctx.socketAddress, deps.config.http.trust_proxy);
  const record = requestRecorder(deps, request, endpoint, ip);

  const refuse = (code: ErrorCode, headers?: Record<string, string>) => {
    const { status, message } = errorFor(code);
    record(status, message, undefined, { code });
    return errorResponse(code, { headers });
  };

  const wait = deps.rateLimiter.take(ip);
  if (wait !== null) return refuse('rate_limited', { 'retry-after': String(wait) });
  const body = await readBodyLimited(request, deps.config.http.max_body_bytes);
  if (body === null) return refuse('body_too_large');

  const headerKey = request.headers.get('x-webhook-key');
  const result = await accept({
    body,
    contentType: request.headers.get('content-type'),
    // The header wins when both are given (docs/http-api.md "POST /webhook/receive — …").
    webhookKey: headerKey !== null && headerKey !== '' ? headerKey : (ctx.query.key ?? null),
    signature: { timestamp: request.headers.get('x-timestamp'), signature: request.headers.get('x-signature') },
    idempotencyKey: request.headers.get('idempotency-key') || null,
    policy: ctx.query.policy || null,
    query: ctx.query,
    headers: request.headers,
  });
  const { status, body: answer } = answerFor(result.outcome);
  // Accepted with nobody to dial it yet: say so, so a tool's operator learns it now (docs/operations.md "Operations").
  if (result.outcome.code === 'QUEUED' && deps.trunkStatus?.().state === 'not_configured') {
    // "Nobody to call" stays the warning (docs/on-call.md "Nothing silently calls nobody"); `warnings` lists both.
    if (typeof answer.warning === 'string') answer.warnings = [answer.warning, NO_TRUNK_WARNING];
    else answer.warning = NO_TRUNK_WARNING;
  }
  const o = result.outcome;
  // An SNS SubscribeURL not confirmed automatically is kept in the history for an operator to open.
  const recorded = o.code === 'SNS_CONFIRMATION' ? `${answer.message}: ${o.subscribeUrl}` : answer.message;
  const refusal = o.code === 'QUEUED' || o.code === 'RESOLVED' || o.code === 'SNS_CONFIRMATION' ? undefined : { code: o.code, reason: 'reason' in o ? o.reason : undefined };
  record(status, recorded, result, refusal);
  if (result.outcome.code === 'QUEUED' && !result.replayed && result.outcome.callIds.length > 0) {
    queuedLogFor(deps.log).add({
      requestId: requestIdFor(request),
      endpoint,
      accountId: result.accountId,
      callIds: result.outcome.callIds,
    });
  }
  return jsonResponse(status, answer, result.replayed ? { 'idempotent-replayed': 'true' } : {});
}

/** The answer to an intake outcome: docs/http-api.md's success bodies, or the catalogue's error. */
function answerFor(o: Outcome): { status: number; body: { status: 'success' | 'error'; message: string } & Record<string, unknown> } {
  switch (o.code) {
    case 'QUEUED':
      return { status: 200, body: queuedAnswer(o) };
    case 'RESOLVED':
      return {
        status: 200,
        body: { status: 'success', message: 'Alert resolved', cancelled_call_ids: o.cancelledCallIds, ...(o.alertId ? { alert_id: o.alertId } : {}) },
      };
    case 'invalid_phone_number':
      // `accepted` names the number forms numbers.accept allows (docs/operations.md
      // "Configuration").
      return { status: errorFor(o.code).status, body: { ...errorBody(o.code, o.value), ...(o.accepted ? { accepted: o.accepted } : {}) } };
    case 'missing_fields':
      return { status: errorFor(o.code).status, body: o.missing ? { ...errorBody(o.code), missing: o.missing } : errorBody(o.code) };
    case 'SNS_CONFIRMATION':
      return { status: 200, body: { status: 'success', message: SNS_CONFIRMATION_MESSAGE, confirmation: o.decision } };
    default:
      return { status: errorFor(o.code).status, body: errorBody(o.code) };
  }
}

/**
 * `Call queued` / `<n> call(s) queued`. A keyed request (it has `deduplicatedCallIds`) also
 * names its alert and what was deduplicated; a plain request answers exactly as before alerts.
 */
function queuedAnswer(o: Extract<Outcome, { code: 'QUEUED' }>) {
  const keyed = o.deduplicatedCallIds !== undefined;
  const dedup = o.deduplicatedCallIds ?? [];
  // docs/on-call.md "Maintenance windows": accepted, stored, nobody called; the answer names the
  // window and the alert.
  const suppressed = o.suppressed ? { alert_id: o.alertId, suppressed: o.suppressed } : {};
  // Contract "Nothing silently calls nobody": accepted as usual, plus why nobody is called.
  const warning = o.warning ? { alert_id: o.alertId, warning: o.warning } : {};
  if (o.endpoint === 'api') {
    // One number: either its new call, or the existing call that stands in for it (none when suppressed).
    const callId = o.callIds[0] ?? dedup[0] ?? null;
    return {
      status: 'success' as const,
      message: 'Call queued',
      call_id: callId,
      ...(keyed ? { alert_id: o.alertId, deduplicated: o.suppressed ? dedup.length > 0 : o.callIds.length === 0 } : {}),
      ...suppressed,
      ...warning,
    };
  }
  return {
    status: 'success' as const,
    message: `${o.callIds.length} call(s) queued`,
    call_ids: o.callIds,
    ...(keyed ? { alert_id: o.alertId, deduplicated_call_ids: dedup } : {}),
    ...suppressed,
    ...warning,
  };
}

interface QueuedEntry {
  requestId: string;
  endpoint: string;
  accountId: string | null;
  callIds: string[];
}

const queuedLogs = new WeakMap<Logger, { add(e: QueuedEntry): void }>();

/**
 * "calls queued" is one line per turn of the event loop listing that turn's requests
 * (the answers of one group commit), each request id in exactly one line. A line per
 * request cost 3–4 µs of CPU alone (pino's JSON and a write(2)) against ~0.4 µs per
 * request in a shared line; under load the profile showed 12% of the main thread in
 * write(2), which on the same file system as the database also waits on its fsyncs.
 */
function queuedLogFor(log: Logger) {
  let q = queuedLogs.get(log);
  if (!q) {
    let pending: QueuedEntry[] = [];
    const flush = () => {
      const requests = pending;
      pending = [];
      log.info({ requests }, 'calls queued');
    };
    q = {
      add(e) {
        if (pending.length === 0) setImmediate(flush);
        pending.push(e);
      },
    };
    queuedLogs.set(log, q);
  }
  return q;
}
