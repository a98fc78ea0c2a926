import type { ErrorCode } from '../errors';
import { describeError, type Logger } from '../log';
import { clientIp } from './client-ip';
import type { HttpDeps } from './deps';
import { readBodyLimited } from './read-body';
import { createRefusalLog, type RefusalLog } from './refusal-log';
import { requestIdFor } from './respond';

/** What every compatible-API request records: the API history row, and a log line when refused. */
export interface CompatEdge {
  ip: string;
  body: Uint8Array;
  record(status: number, message: string, who?: { accountId: string | null; credentialId: string | null }, refusal?: string): void;
}

/**
 * The edge the compatible APIs share with the webhook (README "HTTP API"): the same rate
 * budget per address, the same body limit, the same API history and refusal log. Returns the
 * body, or the answer to give at once (429 / 413, shaped by `refuse` as each API answers).
 */
export async function compatEdge(
  deps: HttpDeps,
  endpoint: string,
  request: Request,
  socketAddress: string | undefined,
  refuse: (code: Extract<ErrorCode, 'rate_limited' | 'body_too_large'>, headers: Record<string, string>) => { status: number; message: string; response: Response },
): Promise<CompatEdge | Response> {
  const ip = clientIp(request, socketAddress, deps.config.http.trust_proxy);
  const record: CompatEdge['record'] = (status, message, who, refusal) => {
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
    if (refusal) refusalLogFor(deps).add({ requestId: entry.requestId, endpoint, address: ip, status, code: refusal, accountId: entry.accountId });
    // As on the webhook: history is for people and never delays or fails an alert.
    deps.store.background(
      (tx) => tx.history.record(entry),
      (e) => deps.log.error({ error: describeError(e), requestId: entry.requestId }, 'api history not recorded'),
    );
  };
  const early = (code: 'rate_limited' | 'body_too_large', headers: Record<string, string> = {}) => {
    const r = refuse(code, headers);
    record(r.status, r.message, undefined, code);
    return r.response;
  };
  const wait = deps.rateLimiter.take(ip);
  if (wait !== null) return early('rate_limited', { 'retry-after': String(wait) });
  const body = await readBodyLimited(request, deps.config.http.max_body_bytes);
  if (body === null) return early('body_too_large');
  return { ip, body, record };
}

const refusalLogs = new WeakMap<Logger, RefusalLog>();

function refusalLogFor(deps: HttpDeps): RefusalLog {
  let r = refusalLogs.get(deps.log);
  if (!r) refusalLogs.set(deps.log, (r = createRefusalLog(deps.log, deps.clock)));
  return r;
}
