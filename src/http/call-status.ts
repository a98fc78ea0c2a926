import { Elysia } from 'elysia';
import { ownCallStatus } from '../calls/status';
import { authenticate, authorize, isSigned, lookupsFor, type Presented, type SignatureHeaders } from '../intake';
import type { HttpDeps } from './deps';
import { requestPath } from './request-path';
import { errorResponse, jsonResponse } from './respond';

const encoder = new TextEncoder();

/** Which credentials the request shows; null when none (401, before any lookup). */
function presentedCredentials(h: Headers, signature: SignatureHeaders): Presented | null {
  const apiKey = h.get('x-api-key');
  const apiSecret = h.get('x-api-secret');
  if (apiKey && apiSecret) return { kind: 'api_secret', apiKey, apiSecret };
  if (apiKey && isSigned(signature)) return { kind: 'api_signature', apiKey };
  return null;
}

/**
 * GET /api/calls/:id: state, attempts, times, last SIP code and acknowledgement (issue 4 §7).
 * Checks in order: credentials shown (401) -> authenticate (403) -> authorize: signature,
 * "signature required", plan (403) -> the caller's own call (404, also for another account's).
 */
export function callStatusRoutes(deps: HttpDeps) {
  return new Elysia({ name: 'call-status' }).get('/api/calls/:id', ({ params, request }) => {
    const h = request.headers;
    const signature = { timestamp: h.get('x-timestamp'), signature: h.get('x-signature') };
    const presented = presentedCredentials(h, signature);
    if (!presented) return errorResponse('missing_api_credentials');
    const lookups = lookupsFor(deps.store).fresh();
    const authn = authenticate(deps.store, lookups, presented);
    if (!authn.ok) return errorResponse(authn.code);
    // A GET has no body: its signature covers `<timestamp>.<request path>`.
    const auth = authorize(deps.intake, lookups, authn, { signature, signedPayload: encoder.encode(requestPath(request)) });
    if (!auth.ok) return errorResponse(auth.code);
    const call = ownCallStatus(deps.store, auth.account.id, params.id);
    return call ? jsonResponse(200, { status: 'success', message: 'Call found', call }) : errorResponse('call_not_found');
  });
}
