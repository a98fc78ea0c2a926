import type { SqlConnection } from './sql/connection';
import { newId } from '../ids';

export interface PolicyStep {
  /** Stored (normalised) numbers, called at once. */
  numbers: string[];
  /** How long the step waits for a keypad 1 after it began, at least. */
  wait_s: number;
  /** Names of on-call schedules whose on-call person is called too, as of the step's start (src/schedules/step-numbers.ts). */
  schedules?: string[];
  /** People (by id) whose phones are called in order, as of the step's start (docs/on-call.md "People"). */
  people?: string[];
}

export interface Policy {
  id: string;
  accountId: string;
  name: string;
  steps: PolicyStep[];
  rounds: number;
  createdAt: number;
  updatedAt: number;
}

interface PolicyRow {
  id: string;
  account_id: string;
  name: string;
  steps: string;
  rounds: number;
  created_at: number;
  updated_at: number;
}

const toPolicy = (r: PolicyRow): Policy => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  steps: JSON.parse(r.steps) as PolicyStep[],
  rounds: r.rounds,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export interface NewPolicy {
  accountId: string;
  name: string;
  steps: PolicyStep[];
  rounds: number;
}

/** Escalation policies per account. Validation is the service's (src/escalation/policies.ts). */
export interface PoliciesStore {
  create(p: NewPolicy, now: number): Promise<Policy>;
  update(id: string, p: Pick<NewPolicy, 'name' | 'steps' | 'rounds'>, now: number): Promise<boolean>;
  get(id: string): Promise<Policy | null>;
  /** By id or by name, within the account. */
  find(accountId: string, idOrName: string): Promise<Policy | null>;
  list(accountId: string): Promise<Policy[]>;
  delete(id: string): Promise<boolean>;
  /** The credential's default policy (null clears it). */
  setDefault(credentialId: string, policyId: string | null): Promise<boolean>;
  defaultOf(credentialId: string): Promise<Policy | null>;
}

export function createPoliciesStore(db: SqlConnection): PoliciesStore {
  return {
    async create(p, now) {
      const id = newId('pol');
      await db.query(
        `INSERT INTO policies (id, account_id, name, steps, rounds, created_at, updated_at)
         VALUES ($id, $account, $name, $steps, $rounds, $now, $now)`,
      ).run({ id, account: p.accountId, name: p.name, steps: JSON.stringify(p.steps), rounds: p.rounds, now });
      return { id, accountId: p.accountId, name: p.name, steps: p.steps, rounds: p.rounds, createdAt: now, updatedAt: now };
    },
    async update(id, p, now) {
      return (
        (await db
          .query('UPDATE policies SET name = $name, steps = $steps, rounds = $rounds, updated_at = $now WHERE id = $id')
          .run({ id, name: p.name, steps: JSON.stringify(p.steps), rounds: p.rounds, now })).changes === 1
      );
    },
    async get(id) {
      const row = (await db.query('SELECT * FROM policies WHERE id = $id').get({ id })) as PolicyRow | null;
      return row ? toPolicy(row) : null;
    },
    async find(accountId, idOrName) {
      const row = (await db
        .query('SELECT * FROM policies WHERE account_id = $a AND (id = $v OR name = $v) LIMIT 1')
        .get({ a: accountId, v: idOrName })) as PolicyRow | null;
      return row ? toPolicy(row) : null;
    },
    async list(accountId) {
      return ((await db.query('SELECT * FROM policies WHERE account_id = $a ORDER BY name').all({ a: accountId })) as PolicyRow[]).map(toPolicy);
    },
    async delete(id) {
      await db.query('UPDATE credentials SET default_policy_id = NULL WHERE default_policy_id = $id').run({ id });
      return (await db.query('DELETE FROM policies WHERE id = $id').run({ id })).changes === 1;
    },
    async setDefault(credentialId, policyId) {
      return (await db.query('UPDATE credentials SET default_policy_id = $p WHERE id = $c').run({ c: credentialId, p: policyId })).changes === 1;
    },
    async defaultOf(credentialId) {
      const row = (await db
        .query('SELECT p.* FROM policies p JOIN credentials c ON c.default_policy_id = p.id WHERE c.id = $c')
        .get({ c: credentialId })) as PolicyRow | null;
      return row ? toPolicy(row) : null;
    },
  };
}
