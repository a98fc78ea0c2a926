import { afterEach, describe, expect, it } from 'vitest';
import { testStoreUrl } from '../../../../test/helpers/postgres';
import { createGroupCommitter } from '../../group-commit';
import { changedAsExpected } from '../connection';
import { transactionControl } from '../transaction-control';
import { HELD_BACK_LIMIT, PostgresError, postgresConnection } from './connection';

// Write-behind and optimistic batches (connection.ts, group-commit.ts): what makes a
// PostgreSQL batch cost a round trip or two instead of several per write, and what keeps
// its answers the ones a careful batch would give.

const open: { close(): void }[] = [];
afterEach(() => open.splice(0).forEach((c) => c.close()));

function connect() {
  const db = postgresConnection({ url: testStoreUrl()!, statementTimeoutMs: 5000 });
  open.push(db);
  db.exec('CREATE TABLE t (id TEXT PRIMARY KEY, n INTEGER NOT NULL)');
  db.exec(`CREATE TABLE credit (id TEXT PRIMARY KEY, used INTEGER NOT NULL, max INTEGER NOT NULL)`);
  return db;
}

const count = (db: ReturnType<typeof connect>) => (db.query('SELECT count(*) AS n FROM t').get() as { n: number }).n;

describe('write-behind (PostgreSQL)', () => {
  it('a batch of writes nobody reads the answer of costs one round trip, its COMMIT', async () => {
    const db = connect();
    const writes = createGroupCommitter(db);
    const insert = db.query('INSERT INTO t (id, n) VALUES ($id, $n)');
    const before = db.roundTrips();
    const ids = await Promise.all(Array.from({ length: 20 }, (_, i) => writes.run(() => (insert.run({ id: `a${i}`, n: i }), `a${i}`))));
    expect(db.roundTrips() - before).toBe(1);
    expect(ids).toHaveLength(20);
    expect(count(db)).toBe(20);
    expect(writes.stats()).toMatchObject({ batches: 1, writes: 20, runAgain: 0 });
  });

  it('a write whose answer is read is sent then, with everything held back before it, in order', async () => {
    const db = connect();
    const writes = createGroupCommitter(db);
    const insert = db.query('INSERT INTO t (id, n) VALUES ($id, $n)');
    const bump = db.query('UPDATE t SET n = n + 1 WHERE n >= $from');
    const changed = await writes.run(() => {
      insert.run({ id: 'x', n: 1 });
      insert.run({ id: 'y', n: 2 });
      const before = db.roundTrips();
      const r = bump.run({ from: 1 }); // held back too, until its answer is asked for
      const held = db.roundTrips() === before;
      return { held, changes: r.changes, trips: db.roundTrips() - before };
    });
    expect(changed).toEqual({ held: true, changes: 2, trips: 1 });
    expect(db.query('SELECT n FROM t ORDER BY id').values()).toEqual([[2], [3]]);
  });

  it('a held-back write that fails rolls the batch back; it is run again carefully and only that write rejects', async () => {
    const db = connect();
    const writes = createGroupCommitter(db);
    const insert = db.query('INSERT INTO t (id, n) VALUES ($id, $n)');
    db.exec(`INSERT INTO t (id, n) VALUES ('taken', 0)`);
    const runs: string[] = [];
    const results = await Promise.allSettled(
      ['a', 'taken', 'b'].map((id) =>
        writes.run(() => {
          runs.push(id);
          insert.run({ id, n: 1 });
          return id;
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(((results[1] as PromiseRejectedResult).reason as PostgresError).sqlState).toBe('23505');
    expect(runs).toEqual(['a', 'taken', 'b', 'a', 'taken', 'b']); // optimistic, then careful
    expect(db.query('SELECT id FROM t ORDER BY id').values()).toEqual([['a'], ['b'], ['taken']]);
    expect(writes.stats()).toMatchObject({ runAgain: 1, batches: 1 });
  });

  it('a held-back check that fails (the last credit) is run again carefully: of two racing, one wins', async () => {
    const db = connect();
    const writes = createGroupCommitter(db);
    db.exec(`INSERT INTO credit (id, used, max) VALUES ('acc', 0, 1)`);
    const charge = db.query('UPDATE credit SET used = used + 1 WHERE id = $id AND used + 1 <= max');
    const insert = db.query('INSERT INTO t (id, n) VALUES ($id, 0)');
    const attempt = (id: string) =>
      writes.run(() => {
        if (!changedAsExpected(charge, { id: 'acc' }, 1)) return 'refused';
        insert.run({ id });
        return 'charged';
      });
    expect(await Promise.all([attempt('first'), attempt('second')])).toEqual(['charged', 'refused']);
    expect(writes.stats().runAgain).toBe(1);
    expect(db.query('SELECT id FROM t').values()).toEqual([['first']]);
    expect(db.query('SELECT used FROM credit').values()).toEqual([[1]]);
  });

  it('held-back checks run after the other held-back writes, in their own order', async () => {
    const db = connect();
    const writes = createGroupCommitter(db);
    const insert = db.query('INSERT INTO t (id, n) VALUES ($id, 0)');
    const bump = db.query('UPDATE t SET n = n + 1 WHERE id = $id');
    const ok = await writes.run(() => {
      // In the order written, the first check would find no row; it is sent after the insert.
      const first = changedAsExpected(bump, { id: 'late' }, 1);
      insert.run({ id: 'late' });
      const second = changedAsExpected(bump, { id: 'late' }, 1);
      return [first, second];
    });
    expect(ok).toEqual([true, true]);
    expect(writes.stats().runAgain).toBe(0);
    expect(db.query(`SELECT n FROM t WHERE id = 'late'`).values()).toEqual([[2]]);
  });

  it("a burst's batch goes in several round trips, none holding more than HELD_BACK_LIMIT statements", async () => {
    const db = connect();
    const writes = createGroupCommitter(db);
    const insert = db.query('INSERT INTO t (id, n) VALUES ($id, $n)');
    const before = db.roundTrips();
    const n = HELD_BACK_LIMIT * 2 + 100;
    await Promise.all(Array.from({ length: n }, (_, i) => writes.run(() => insert.run({ id: `b${i}`, n: i }))));
    expect(db.roundTrips() - before).toBe(3); // two full, then the rest with the COMMIT
    expect(count(db)).toBe(n);
    expect(writes.stats()).toMatchObject({ batches: 1, runAgain: 0 });
  });

  it('a request too large for the bridge is an ordinary error: the database is not taken for gone', () => {
    const db = connect();
    let error: unknown;
    try {
      db.query('SELECT length($big) AS n').get({ big: 'x'.repeat(5 << 20) });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PostgresError);
    expect((error as PostgresError).message).toMatch(/exceeds the bridge/);
    expect((error as PostgresError).lost).toBe(false);
    expect(db.query('SELECT 1 AS one').get()).toEqual({ one: 1 }); // no fail-fast pause
  });

  it('outside write-behind a check answers at once, and a plain write is sent at once', () => {
    const db = connect();
    db.exec(`INSERT INTO credit (id, used, max) VALUES ('acc', 1, 1)`);
    const charge = db.query('UPDATE credit SET used = used + 1 WHERE id = $id AND used + 1 <= max');
    db.exec('BEGIN');
    const before = db.roundTrips();
    expect(changedAsExpected(charge, { id: 'acc' }, 1)).toBe(false);
    db.query(`INSERT INTO t (id, n) VALUES ('z', 0)`).run();
    expect(db.roundTrips() - before).toBe(2); // BEGIN travelled with the first
    db.exec('ROLLBACK');
  });

  it('a batch is run again only when nothing of it can have committed', () => {
    const db = connect();
    const { optimistic } = transactionControl(db);
    expect(optimistic!.canRunAgain(new PostgresError('duplicate key', '23505', 'INSERT …'))).toBe(true);
    expect(optimistic!.canRunAgain(new Error('a write threw'))).toBe(true);
    // Lost with the COMMIT in flight: it may have committed; running again could queue twice.
    expect(optimistic!.canRunAgain(new PostgresError('connection closed', undefined, 'COMMIT', true))).toBe(false);
  });

  it('a COMMIT whose held-back writes failed leaves the transaction open for the rollback', () => {
    const db = connect();
    db.exec(`INSERT INTO t (id, n) VALUES ('taken', 0)`);
    db.writeBehind = true;
    db.exec('BEGIN');
    db.query(`INSERT INTO t (id, n) VALUES ('taken', 1)`).run();
    expect(() => db.exec('COMMIT')).toThrow(/duplicate key/);
    expect(db.inTransaction).toBe(true);
    db.writeBehind = false;
    db.exec('ROLLBACK');
    expect(db.inTransaction).toBe(false);
    expect(count(db)).toBe(1);
  });
});
