import { escalationPlan } from '../escalation';
import type { Credential, EscalationPlan, Policy, Store } from '../store';

export type PolicyChoice =
  | { ok: true; escalation: { policy: Policy; plan: EscalationPlan } | null }
  | { ok: false; code: 'unknown_policy' };

/**
 * docs/on-call.md "Escalation: call until someone presses 1": a request names a policy with
 * `policy`, or its credential has a default one; then the numbers it gives (if any) are called with
 * the first step.
 * A named policy that the account does not have is refused (never silently ignored).
 */
export async function choosePolicy(store: Store, accountId: string, cred: Credential, named: string | null, numbers: readonly string[]): Promise<PolicyChoice> {
  // The default comes with the (cached) credential: a plain request costs no policy query.
  const policy = named ? await store.policies.find(accountId, named) : cred.defaultPolicyId ? await store.policies.get(cred.defaultPolicyId) : null;
  if (named && !policy) return { ok: false, code: 'unknown_policy' };
  return { ok: true, escalation: policy ? { policy, plan: escalationPlan(policy, numbers) } : null };
}

/** Whether a credential follows a default policy (so its requests may omit phone_number). */
export function hasDefaultPolicy(cred: Credential): boolean {
  return cred.defaultPolicyId !== null;
}
