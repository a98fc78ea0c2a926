import type { Policy } from '../store';

/** `desk pin --json`: the account's new desk PIN, shown only then. Fields may be added, never renamed. */
export function deskPinJson(r: { accountId: string; pin: string }) {
  return { account_id: r.accountId, pin: r.pin };
}

/** `desk set-policy --json`: the policy keypad 0 connects to. Fields may be added, never renamed. */
export function deskPolicyJson(r: { accountId: string; policy: Pick<Policy, 'id' | 'name'> }) {
  return { account_id: r.accountId, policy_id: r.policy.id, policy: r.policy.name };
}
