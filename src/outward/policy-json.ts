import type { Policy } from '../store';
import { iso } from './iso';

/** The JSON of a policy, for the CLI (--json) and the API. */
export function policyJson(p: Policy) {
  return { id: p.id, account_id: p.accountId, name: p.name, steps: p.steps, rounds: p.rounds, created_at: iso(p.createdAt), updated_at: iso(p.updatedAt) };
}

/** `policy delete --json`: the policy as it was. Fields may be added, never renamed. */
export function policyDeletedJson(p: Policy) {
  return { ...policyJson(p), deleted: true };
}

/** `policy set-default --json`: the policy (id or name, as given) a credential now follows, or null. */
export function defaultPolicyJson(apiKey: string, policy: string | null) {
  return { api_key: apiKey, default_policy: policy };
}
