import { dialectOf } from './sql/dialect';
import { changedAsExpected, type SqlConnection } from './sql/connection';

/** Calls charged per account and credit period (`YYYY-MM`). */
export interface UsageStore {
  usedIn(accountId: string, period: string): number;
  /** Adds `calls` to the period's usage. Run inside the transaction that queues them. */
  charge(accountId: string, period: string, calls: number): void;
  /**
   * Adds `calls` only if the period's usage stays within `credit`; true when charged.
   * One statement does the check and the charge (the intake's hot path: one fewer per
   * request than usedIn + charge). Run inside the transaction that queues the calls.
   */
  tryCharge(accountId: string, period: string, calls: number, credit: number): boolean;
  /** Gives `calls` back to the period they were charged in (a cancelled call never dialled). */
  refund(accountId: string, period: string, calls: number): void;
}

export function createUsageStore(db: SqlConnection): UsageStore {
  // An INSERT … SELECT before ON CONFLICT needs a WHERE clause, or SQLite may read ON as a
  // join's (sqlite.org/lang_upsert.html); ours is the credit check for a new period's row.
  const tryCharge = db.query(
    `INSERT INTO usage (account_id, period, used) SELECT $a, $p, $n WHERE $n <= $credit
     ON CONFLICT (account_id, period) DO UPDATE SET used = usage.used + excluded.used
       WHERE usage.used + excluded.used <= $credit`,
  );
  /**
   * Account periods whose last charge found the credit short. Their charges are answered
   * at once rather than taken to succeed (changedAsExpected): a source hammering an
   * exhausted account would otherwise make every PostgreSQL batch it rides in run twice.
   */
  const short = new Set<string>();
  return {
    usedIn(accountId, period) {
      const row = db
        .query('SELECT used FROM usage WHERE account_id = $a AND period = $p')
        .get({ a: accountId, p: period }) as { used: number } | null;
      return row?.used ?? 0;
    },
    charge(accountId, period, calls) {
      db.query(
        `INSERT INTO usage (account_id, period, used) VALUES ($a, $p, $n)
         ON CONFLICT (account_id, period) DO UPDATE SET used = usage.used + excluded.used`,
      ).run({ a: accountId, p: period, n: calls });
    },
    refund(accountId, period, calls) {
      db.query(`UPDATE usage SET used = ${dialectOf(db.dialect).greatest('0', 'used - $n')} WHERE account_id = $a AND period = $p`).run({ a: accountId, p: period, n: calls });
    },
    tryCharge(accountId, period, calls, credit) {
      const params = { a: accountId, p: period, n: calls, credit };
      const key = `${accountId} ${period}`;
      if (short.has(key)) {
        const charged = tryCharge.run(params).changes === 1;
        if (charged) short.delete(key);
        return charged;
      }
      const charged = changedAsExpected(tryCharge, params, 1);
      if (!charged) short.add(key);
      return charged;
    },
  };
}
