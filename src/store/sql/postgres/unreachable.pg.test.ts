import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../../test/helpers/ports';
import { startPostgresCluster, type PostgresCluster } from '../../../../test/helpers/postgres';
import { postgresConnection, UNREACHABLE_BACKOFF_MS } from './connection';

// A cluster of its own: this test stops the server under a live connection.
let cluster: PostgresCluster;
beforeAll(async () => {
  cluster = startPostgresCluster(await freePort());
});
afterAll(() => cluster?.stop());

describe('PostgreSQL going away under a live connection', () => {
  it('fails statements quickly while it is gone (never hangs the thread), and carries on when it is back', async () => {
    const db = postgresConnection({ url: `${cluster.baseUrl}postgres`, statementTimeoutMs: 5_000 });
    try {
      expect(db.query('SELECT 1 AS one').get()).toEqual({ one: 1 });
      cluster.halt();
      const t0 = performance.now();
      expect(() => db.query('SELECT 1 AS one').get()).toThrow();
      // Then at once, without a connection attempt each, for the back-off.
      const t1 = performance.now();
      expect(() => db.query('SELECT 1 AS one').get()).toThrow(/database unreachable/);
      expect(performance.now() - t1).toBeLessThan(50);
      expect(t1 - t0).toBeLessThan(5_000);
      cluster.resume();
      await expect
        .poll(
          () => {
            try {
              return db.query('SELECT 1 AS one').get();
            } catch {
              return null;
            }
          },
          { timeout: 10_000, interval: UNREACHABLE_BACKOFF_MS / 2 },
        )
        .toEqual({ one: 1 });
    } finally {
      db.close();
    }
  });

  it('a transaction whose connection broke is refused until rolled back, never continued outside it', async () => {
    const db = postgresConnection({ url: `${cluster.baseUrl}postgres`, statementTimeoutMs: 5_000 });
    try {
      db.exec('CREATE TABLE IF NOT EXISTS t (v TEXT)');
      db.exec('BEGIN');
      db.query('INSERT INTO t (v) VALUES ($v)').run({ v: 'before' });
      cluster.halt();
      expect(() => db.query('INSERT INTO t (v) VALUES ($v)').run({ v: 'lost' })).toThrow();
      cluster.resume();
      await new Promise((r) => setTimeout(r, UNREACHABLE_BACKOFF_MS + 100));
      // Still refused: the statement would otherwise commit alone on a new connection.
      expect(() => db.query('INSERT INTO t (v) VALUES ($v)').run({ v: 'after' })).toThrow(/lost inside a transaction/);
      db.exec('ROLLBACK');
      expect(db.inTransaction).toBe(false);
      expect(db.query('SELECT count(*) AS n FROM t').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });
});
