import type { ErrorCode } from '../errors';
import { clientIp } from './client-ip';
import type { HttpDeps } from './deps';
import { readBodyLimited } from './read-body';
import { requestRecorder } from './request-record';

/** What every compatible-API request records: the API history row, and a log line when refused. */
export interface CompatEdge {
  ip: string;
  body: Uint8Array;
  record(status: number, message: string, who?: { accountId: string | null; credentialId: string | null }, refusal?: string): void;
}

/**
 * The edge the compatible APIs share with the webhook (docs/http-api.md): the same rate
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
  const recordRequest = requestRecorder(deps, request, endpoint, ip);
  const record: CompatEdge['record'] = (status, message, who, refusal) => recordRequest(status, message, who, refusal ? { code: refusal } : undefined);
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
