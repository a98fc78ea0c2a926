import type { Account } from '../store';
import { authenticate, authorize, lookupsFor, type Presented } from '../intake';
import { isSigned, type SignatureHeaders } from '../signing';
import type { HttpDeps } from './deps';
import { requestPath } from './request-path';
import { errorResponse } from './respond';

const encoder = new TextEncoder();

/**
 * Which credentials a request to the read-and-act API (/api/calls/{id}, /api/alerts/{id}…)
 * shows in its headers; null when none (401, before any lookup). The API key comes first;
 * the account's webhook key is accepted too, since that is the credential monitoring tools
 * hold (docs/http-api.md "GET /api/alerts/{id}, …" and "GET /api/calls/{id} — a call's state").
 */
export function presentedCredentials(h: Headers, signature: SignatureHeaders): Presented | null {
  const apiKey = h.get('x-api-key');
  const apiSecret = h.get('x-api-secret');
  if (apiKey && apiSecret) return { kind: 'api_secret', apiKey, apiSecret };
  if (apiKey && isSigned(signature)) return { kind: 'api_signature', apiKey };
  const webhookKey = h.get('x-webhook-key')?.trim();
  if (webhookKey) return { kind: 'webhook_key', webhookKey };
  return null;
}

export interface ApiAuthOptions {
  /** A request with a body: the signature covers `<timestamp>.<raw body>`, as on POST /api/call. */
  body?: Uint8Array;
  /**
   * Settings that silence alerts (docs/on-call.md "Maintenance windows") take the API key (with its
   * secret or a signature), not the webhook key that monitoring tools hold.
   */
  apiKeyOnly?: boolean;
}

/**
 * The checks every request of that API passes, in order: credentials shown (401) ->
 * authenticate (403) -> authorize: signature, "signature required", plan (403).
 * These requests carry no body, so a signature covers `<timestamp>.<request path>`
 * (the path names the call or alert and the action, so a signature cannot be reused for another).
 */
export async function authenticateApiRequest(
  deps: HttpDeps,
  request: Request,
  options: ApiAuthOptions = {},
): Promise<{ ok: true; account: Account } | { ok: false; response: Response }> {
  const h = request.headers;
  const signature = { timestamp: h.get('x-timestamp'), signature: h.get('x-signature') };
  const presented = presentedCredentials(h, signature);
  if (!presented || (options.apiKeyOnly && presented.kind === 'webhook_key')) return { ok: false, response: errorResponse('missing_api_credentials') };
  const lookups = await lookupsFor(deps.store).fresh();
  const authn = await authenticate(deps.store, lookups, presented);
  if (!authn.ok) return { ok: false, response: errorResponse(authn.code) };
  const auth = await authorize(deps.intake, lookups, authn, { signature, signedPayload: options.body ?? encoder.encode(requestPath(request)) });
  if (!auth.ok) return { ok: false, response: errorResponse(auth.code) };
  return { ok: true, account: auth.account };
}
