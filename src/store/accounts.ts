import type { SqlConnection } from './sql/connection';
import type { Clock } from '../clock';
import { PLAN_MONTHLY_CREDIT, type Plan } from '../credit';
import { newId } from '../ids';

export interface Account {
  id: string;
  name: string;
  plan: Plan;
  /** What the account gets per period: its own amount if set, else the plan's. */
  monthlyCredit: number;
  monthlyCreditOverride: number | null;
  disabled: boolean;
  createdAt: number;
}

interface AccountRow {
  id: string;
  name: string;
  plan: Plan;
  monthly_credit: number | null;
  disabled: number;
  created_at: number;
}

export function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan,
    monthlyCredit: row.monthly_credit ?? PLAN_MONTHLY_CREDIT[row.plan],
    monthlyCreditOverride: row.monthly_credit,
    disabled: row.disabled === 1,
    createdAt: row.created_at,
  };
}

export interface AccountsStore {
  create(input: { name: string; plan: Plan; monthlyCredit?: number | null }): Promise<Account>;
  get(id: string): Promise<Account | null>;
  list(): Promise<Account[]>;
  count(): Promise<number>;
  /**
   * Changes the plan; `monthlyCredit` undefined keeps the current override, null clears it.
   * Inside a transaction (it also makes the account's usage exact: usage.ts).
   */
  setPlan(id: string, plan: Plan, monthlyCredit?: number | null): Promise<Account | null>;
  setDisabled(id: string, disabled: boolean): Promise<Account | null>;
}

export function createAccountsStore(db: SqlConnection, clock: Clock): AccountsStore {
  const get = async (id: string) => {
    const row = (await db.query('SELECT * FROM accounts WHERE id = $id').get({ id })) as AccountRow | null;
    return row ? toAccount(row) : null;
  };
  return {
    async create({ name, plan, monthlyCredit = null }) {
      const id = newId('acc');
      await db.query(
        'INSERT INTO accounts (id, name, plan, monthly_credit, disabled, created_at) VALUES ($id, $name, $plan, $credit, 0, $now)',
      ).run({ id, name, plan, credit: monthlyCredit, now: clock() });
      return (await get(id))!;
    },
    get,
    async list() {
      return ((await db.query('SELECT * FROM accounts ORDER BY created_at, id').all()) as AccountRow[]).map(toAccount);
    },
    async count() {
      return ((await db.query('SELECT count(*) AS n FROM accounts').get()) as { n: number }).n;
    },
    async setPlan(id, plan, monthlyCredit) {
      if (monthlyCredit === undefined) {
        await db.query('UPDATE accounts SET plan = $plan WHERE id = $id').run({ id, plan });
      } else {
        await db.query('UPDATE accounts SET plan = $plan, monthly_credit = $credit WHERE id = $id').run({
          id,
          plan,
          credit: monthlyCredit,
        });
      }
      // The credit may have changed: shares of the old one no longer bound the total, so the
      // account's periods check the total from now on (usage.ts).
      await db.query('UPDATE usage_shards SET exact = 1 WHERE account_id = $id').run({ id });
      return get(id);
    },
    async setDisabled(id, disabled) {
      await db.query('UPDATE accounts SET disabled = $d WHERE id = $id').run({ id, d: disabled ? 1 : 0 });
      return get(id);
    },
  };
}
