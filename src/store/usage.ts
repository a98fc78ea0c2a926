import type { Database } from 'bun:sqlite';

/** Calls charged per account and credit period (`YYYY-MM`). */
export interface UsageStore {
  usedIn(accountId: string, period: string): number;
  /** Adds `calls` to the period's usage. Run inside the transaction that queues them. */
  charge(accountId: string, period: string, calls: number): void;
}

export function createUsageStore(db: Database): UsageStore {
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
         ON CONFLICT (account_id, period) DO UPDATE SET used = used + excluded.used`,
      ).run({ a: accountId, p: period, n: calls });
    },
  };
}
