import { errorBody, errorFor, type ErrorCode } from '../errors';
import type { IntakeRequest, IntakeResult, Outcome } from '../intake';
import type { Logger } from '../log';
import { SNS_CONFIRMATION_MESSAGE } from '../sources';
import { clientIp } from './client-ip';
import type { HttpDeps } from './deps';
import { readBodyLimited } from './read-body';
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
  const record = (status: number, message: string, who?: Pick<IntakeResult, 'accountId' | 'credentialId'>) => {
    const entry = {
      at: deps.clock(),
      requestId: requestIdFor(request),
      endpoint,
      sourceIp: ip,
      status,
      message,
      accountId: who?.accountId ?? null,
      credentialId: who?.credentialId ?? null,
    };
    // History is for people; it must never delay or fail an alert. Its write joins the next batch.
    deps.store.writes.runDetached(
      () => deps.store.history.record(entry),
      (e) => deps.log.error({ err: e, requestId: entry.requestId }, 'api history not recorded'),
    );
  };

  const refuse = (code: ErrorCode, headers?: Record<string, string>) => {
    const { status, message } = errorFor(code);
    record(status, message);
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
    // The header wins when both are given (contract).
    webhookKey: headerKey !== null && headerKey !== '' ? headerKey : (ctx.query.key ?? null),
    signature: { timestamp: request.headers.get('x-timestamp'), signature: request.headers.get('x-signature') },
    idempotencyKey: request.headers.get('idempotency-key') || null,
    query: ctx.query,
    headers: request.headers,
  });
  const { status, body: answer } = answerFor(result.outcome);
  // An SNS SubscribeURL not confirmed automatically is kept in the history for an operator to open.
  record(status, result.outcome.code === 'SNS_CONFIRMATION' ? `${answer.message}: ${result.outcome.subscribeUrl}` : answer.message, result);
  if (result.outcome.code === 'QUEUED' && !result.replayed) {
    queuedLogFor(deps.log).add({
      requestId: requestIdFor(request),
      endpoint,
      accountId: result.accountId,
      callIds: result.outcome.callIds,
    });
  }
  return jsonResponse(status, answer, result.replayed ? { 'idempotent-replayed': 'true' } : {});
}

/** The answer to an intake outcome: contract.md's success bodies, or the catalogue's error. */
function answerFor(o: Outcome): { status: number; body: { status: 'success' | 'error'; message: string } & Record<string, unknown> } {
  switch (o.code) {
    case 'QUEUED':
      return o.endpoint === 'api'
        ? { status: 200, body: { status: 'success', message: 'Call queued', call_id: o.callIds[0] } }
        : { status: 200, body: { status: 'success', message: `${o.callIds.length} call(s) queued`, call_ids: o.callIds } };
    case 'invalid_phone_number':
      // `accepted` names the number forms numbers.accept allows (contract "Numbers beyond Turkish mobiles").
      return { status: errorFor(o.code).status, body: { ...errorBody(o.code, o.value), ...(o.accepted ? { accepted: o.accepted } : {}) } };
    case 'SNS_CONFIRMATION':
      return { status: 200, body: { status: 'success', message: SNS_CONFIRMATION_MESSAGE, confirmation: o.decision } };
    default:
      return { status: errorFor(o.code).status, body: errorBody(o.code) };
  }
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
