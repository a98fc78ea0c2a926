import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALERT_BY_KEY_SQL, ANY_BY_KEY_SQL } from './alerts';
import { openDatabase } from './sql/sqlite/database';

// SQLite's plan for the lookups every keyed request makes. Through the account's index it
// walked every alert of the account to find a key never seen before: 2 ms of CPU a request
// at 7,500 alerts (BENCHMARKS.md, keyed Alertmanager payloads).
describe('an alert found by its key', () => {
  /** SQLite's plan for `sql` on a fresh database of the current schema. */
  const planOf = (sql: string): string[] => {
    const db = openDatabase({ path: join(mkdtempSync(join(tmpdir(), 'va-plan-')), 'voice-alert.db'), busyTimeoutMs: 1000 });
    try {
      return (db.query(`EXPLAIN QUERY PLAN ${sql}`).all({ $account: 'acc_x', $key: 'k' }) as { detail: string }[]).map((r) => r.detail);
    } finally {
      db.close();
    }
  };

  it.each(Object.entries(ALERT_BY_KEY_SQL))('the %s lookup searches the key in alerts_key, in its order (no sort, no walk of the account)', (_name, sql) => {
    expect(planOf(sql)).toEqual(['SEARCH alerts USING INDEX alerts_key (account_id=? AND alert_key=?)']);
  });

  it('whether a key was ever seen is one seek in alerts_key, reading no row', () => {
    expect(planOf(ANY_BY_KEY_SQL)).toEqual(['SEARCH alerts USING COVERING INDEX alerts_key (account_id=? AND alert_key=?)']);
  });
});
