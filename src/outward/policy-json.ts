import type { Policy } from '../store';
import { iso } from './iso';

/** The JSON of a policy, for the CLI (--json) and the API. */
export function policyJson(p: Policy) {
  return { id: p.id, account_id: p.accountId, name: p.name, steps: p.steps, rounds: p.rounds, created_at: iso(p.createdAt), updated_at: iso(p.updatedAt) };
}
