import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createStore } from '.';
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

  it('a plain alert (no key) is not in alerts_key: only keyed alerts are looked up by key', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'va-plan-')), 'voice-alert.db');
    const store = await createStore({ path, busyTimeoutMs: 1000, clock: Date.now });
    await store.transaction(async (tx) => {
      const account = await tx.accounts.create({ name: 'a', plan: 'enterprise', monthlyCredit: 100 });
      const alert = { accountId: account.id, credentialId: null, source: 'webhook', message: 'm', labels: null };
      await tx.alerts.create({ ...alert, key: null }, Date.now());
      await tx.alerts.create({ ...alert, key: 'disk-full' }, Date.now());
      await tx.alerts.create({ ...alert, key: null }, Date.now());
    });
    await store.close();
    const db = openDatabase({ path, busyTimeoutMs: 1000 });
    try {
      // dbstat counts the index's own entries (cells), not what a query through it returns.
      expect(db.query(`SELECT sum(ncell) AS n FROM dbstat WHERE name = 'alerts_key'`).get()).toEqual({ n: 1 });
      expect(db.query('SELECT count(*) AS n FROM alerts').get()).toEqual({ n: 3 });
    } finally {
      db.close();
    }
  });
});
