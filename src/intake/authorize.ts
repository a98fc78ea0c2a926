import type { Account, Credential } from '../store';
import type { Authentication } from './authenticate';
import type { IntakeDeps } from './deps';
import type { Lookups } from './lookup-cache';
import type { IntakeEndpoint, Outcome } from './outcome';
import { isSigned, verifySignature, type SignatureHeaders } from './signature';
import { replayMemoryFor } from './signature-replay';

export interface AuthorizeRequest {
  signature: SignatureHeaders;
  /** The bytes the signature covers: the raw body, or the path of a GET (it has no body). */
  signedPayload: Uint8Array;
}

/** Alert endpoints only: a repeated Idempotency-Key answers with the earlier outcome. */
export interface Idempotency {
  endpoint: IntakeEndpoint;
  key: string | null;
}

export type AuthorizationRefusal = 'invalid_signature' | 'signature_required' | 'plan_refused';

export type Authorization =
  | { ok: true; account: Account }
  /** reason: for the log only; the answer is the code's (a replay is `Invalid signature`). */
  | { ok: false; code: AuthorizationRefusal; reason?: 'replayed' };

/** An earlier outcome for the same Idempotency-Key: answer it again as it is. */
export type Replayed = { ok: false; replayed: Outcome };

/**
 * What every authenticated endpoint checks once `authenticate` found the credential, in
 * contract.md's order: the signature (or its absence when the set requires one), an
 * idempotent replay (when the endpoint has one), then the plan (a Free plan or a disabled
 * account has no API access).
 */
export function authorize(deps: IntakeDeps, lookups: Lookups, authn: Authenticated, req: AuthorizeRequest, idempotency: Idempotency): Authorization | Replayed;
export function authorize(deps: IntakeDeps, lookups: Lookups, authn: Authenticated, req: AuthorizeRequest): Authorization;
export function authorize(
  deps: IntakeDeps,
  lookups: Lookups,
  authn: Authenticated,
  req: AuthorizeRequest,
  idempotency?: Idempotency,
): Authorization | Replayed {
  const cred: Credential = authn.credential;
  if (isSigned(req.signature)) {
    if (!verifySignature(authn.signingKey(), req.signature, req.signedPayload, deps.clock())) return { ok: false, code: 'invalid_signature' };
  } else if (cred.requireSignature) {
    return { ok: false, code: 'signature_required' };
  }
  if (idempotency?.key) {
    const earlier = deps.store.idempotency.find(cred.id, idempotency.endpoint, idempotency.key, deps.clock());
    if (earlier) return { ok: false, replayed: earlier as Outcome };
  }
  // A signed alert seen before is refused: it would queue and charge again. After the
  // idempotent replay above, so a monitoring tool's retried delivery (same bytes, same
  // signature, same Idempotency-Key) still gets its first answer. Reads (no idempotency)
  // may repeat: they change nothing.
  if (idempotency && isSigned(req.signature)) {
    const fresh = replayMemoryFor(deps.store).firstUse(cred.id, req.signature.signature!, Number(req.signature.timestamp), deps.clock());
    if (!fresh) return { ok: false, code: 'invalid_signature', reason: 'replayed' };
  }
  const account = lookups.account(cred.accountId);
  if (!account || account.disabled || account.plan === 'free') return { ok: false, code: 'plan_refused' };
  return { ok: true, account };
}

type Authenticated = Extract<Authentication, { ok: true }>;
