import { dialectOf } from './sql/dialect';
import type { SqlConnection } from './sql/connection';

/** Calls charged per account and credit period (`YYYY-MM`). */
export interface UsageStore {
  usedIn(accountId: string, period: string): Promise<number>;
  /** Adds `calls` to the period's usage. Run inside the transaction that queues them. */
  charge(accountId: string, period: string, calls: number): Promise<void>;
  /**
   * Adds `calls` only if the period's usage stays within `credit`; true when charged.
   * One statement does the check and the charge (the intake's hot path: one fewer per
   * request than usedIn + charge). Run inside the transaction that queues the calls.
   */
  tryCharge(accountId: string, period: string, calls: number, credit: number): Promise<boolean>;
  /** Gives `calls` back to the period they were charged in (a cancelled call never dialled). */
  refund(accountId: string, period: string, calls: number): Promise<void>;
}

export function createUsageStore(db: SqlConnection): UsageStore {
  // An INSERT … SELECT before ON CONFLICT needs a WHERE clause, or SQLite may read ON as a
  // join's (sqlite.org/lang_upsert.html); ours is the credit check for a new period's row.
  const tryCharge = db.query(
    `INSERT INTO usage (account_id, period, used) SELECT $a, $p, $n WHERE $n <= $credit
     ON CONFLICT (account_id, period) DO UPDATE SET used = usage.used + excluded.used
       WHERE usage.used + excluded.used <= $credit`,
  );
  return {
    async usedIn(accountId, period) {
      const row = (await db
        .query('SELECT used FROM usage WHERE account_id = $a AND period = $p')
        .get({ a: accountId, p: period })) as { used: number } | null;
      return row?.used ?? 0;
    },
    async charge(accountId, period, calls) {
      await db.query(
        `INSERT INTO usage (account_id, period, used) VALUES ($a, $p, $n)
         ON CONFLICT (account_id, period) DO UPDATE SET used = usage.used + excluded.used`,
      ).run({ a: accountId, p: period, n: calls });
    },
    async refund(accountId, period, calls) {
      await db.query(`UPDATE usage SET used = ${dialectOf(db.dialect).greatest('0', 'used - $n')} WHERE account_id = $a AND period = $p`).run({ a: accountId, p: period, n: calls });
    },
    async tryCharge(accountId, period, calls, credit) {
      return (await tryCharge.run({ a: accountId, p: period, n: calls, credit })).changes === 1;
    },
  };
}
