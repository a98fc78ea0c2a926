import type { Account, Credential } from '../store';
import type { IntakeDeps, IntakeRequest } from './deps';
import type { Lookups } from './lookup-cache';
import type { IntakeEndpoint, IntakeResult, Outcome } from './outcome';
import { isSigned, verifySignature } from './signature';

export type Authorization =
  | { ok: true; account: Account }
  /** Refused, or an idempotent replay: answer `result` as it is. */
  | { ok: false; result: IntakeResult };

/**
 * What both endpoints check once the credential is known, in contract.md's order:
 * the signature (or its absence when the set requires one), an idempotent replay, then the plan.
 * `signingKey` is the API secret for /api/call and the webhook key for /webhook/receive;
 * it is only asked for when the request is signed (the secret must be decrypted).
 */
export function authorize(
  deps: IntakeDeps,
  lookups: Lookups,
  cred: Credential,
  endpoint: IntakeEndpoint,
  req: IntakeRequest,
  signingKey: () => string,
): Authorization {
  const who = { accountId: cred.accountId, credentialId: cred.id };
  const refuse = (outcome: Outcome): Authorization => ({ ok: false, result: { outcome, ...who, replayed: false } });
  if (isSigned(req.signature)) {
    if (!verifySignature(signingKey(), req.signature, req.body, deps.clock())) return refuse({ code: 'INVALID_SIGNATURE' });
  } else if (cred.requireSignature) {
    return refuse({ code: 'SIGNATURE_REQUIRED' });
  }
  const replay = req.idempotencyKey && deps.store.idempotency.find(cred.id, endpoint, req.idempotencyKey, deps.clock());
  if (replay) return { ok: false, result: { outcome: replay as Outcome, ...who, replayed: true } };
  const account = lookups.account(cred.accountId);
  if (!account || account.disabled || account.plan === 'free') return refuse({ code: 'PLAN_REFUSED' });
  return { ok: true, account };
}
