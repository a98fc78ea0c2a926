import type { Account, Credential } from '../store';
import type { Authentication } from './authenticate';
import type { IntakeDeps } from './deps';
import type { Lookups } from './lookup-cache';
import type { IntakeEndpoint, Outcome } from './outcome';
import { isSigned, SIGNATURE_TOLERANCE_S, verifySignature, type SignatureHeaders } from '../signing';

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
  /** `signedOnce`: a signed alert request, to be remembered in the transaction that accepts it (enqueue.ts). */
  | { ok: true; account: Account; signedOnce: SignedOnce | null }
  /** reason: for the log only; the answer is the code's (a replay is `Invalid signature`). */
  | { ok: false; code: AuthorizationRefusal; reason?: 'replayed' };

/**
 * A signed alert request's signature, which the transaction accepting it remembers (the
 * store's signed_requests, shared by every appliance): the same bytes again, here or on
 * another appliance, would queue and charge again, so they are refused (`Invalid
 * signature`). Remembered in that transaction, not before it: a request that is not
 * accepted after all (503, the database away) leaves nothing behind, and the tool's retry
 * of the same bytes is taken. Until the timestamp alone refuses it.
 */
export interface SignedOnce {
  signature: string;
  expiresAt: number;
}

/** An earlier outcome for the same Idempotency-Key: answer it again as it is. */
export type Replayed = { ok: false; replayed: Outcome };

/**
 * What every authenticated endpoint checks once `authenticate` found the credential, in
 * the order of the tables in docs/http-api.md (the replay: "Retried deliveries"): the
 * signature (or its absence when the set requires one), an idempotent replay (when the
 * endpoint has one), then the plan (a Free plan or a disabled account has no API access).
 */
export function authorize(deps: IntakeDeps, lookups: Lookups, authn: Authenticated, req: AuthorizeRequest, idempotency: Idempotency): Promise<Authorization | Replayed>;
export function authorize(deps: IntakeDeps, lookups: Lookups, authn: Authenticated, req: AuthorizeRequest): Promise<Authorization>;
export async function authorize(
  deps: IntakeDeps,
  lookups: Lookups,
  authn: Authenticated,
  req: AuthorizeRequest,
  idempotency?: Idempotency,
): Promise<Authorization | Replayed> {
  const cred: Credential = authn.credential;
  if (isSigned(req.signature)) {
    if (!verifySignature(await authn.signingKey(), req.signature, req.signedPayload, deps.clock())) return { ok: false, code: 'invalid_signature' };
  } else if (cred.requireSignature) {
    return { ok: false, code: 'signature_required' };
  }
  if (idempotency?.key) {
    const earlier = await deps.store.idempotency.find(cred.id, idempotency.endpoint, idempotency.key, deps.clock());
    if (earlier) return { ok: false, replayed: earlier as Outcome };
  }
  const account = await lookups.account(cred.accountId);
  if (!account || account.disabled || account.plan === 'free') return { ok: false, code: 'plan_refused' };
  // Alert endpoints only (they have an idempotency key slot): reads may repeat, they change nothing.
  const signedOnce = idempotency && isSigned(req.signature) ? { signature: req.signature.signature!, expiresAt: (Number(req.signature.timestamp) + SIGNATURE_TOLERANCE_S) * 1000 + 1000 } : null;
  return { ok: true, account, signedOnce };
}

type Authenticated = Extract<Authentication, { ok: true }>;
