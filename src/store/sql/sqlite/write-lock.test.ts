import { Database } from 'bun:sqlite';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { largestTickGap } from '../../../../test/helpers/tick-gap';
import { createStore, DatabaseUnavailableError, type Store } from '../..';
import { beginWhenFree, isBusy, LOCK_RETRY_MAX_MS } from './write-lock';

// The lock is held by a second connection in this process: SQLite's file locks work between
// connections as between processes. A busy handler sleeping on this thread could never see
// it released, since the release itself is a timer of this thread.

let store: Store | undefined;
let holder: Database | undefined;
afterEach(async () => {
  if (holder?.inTransaction) holder.run('ROLLBACK');
  holder?.close();
  holder = undefined;
  await store?.close();
  store = undefined;
});

async function lockedStore(lockWaitMs: number) {
  const path = join(mkdtempSync(join(tmpdir(), 'va-lock-')), 'voice-alert.db');
  store = await createStore({ path, busyTimeoutMs: lockWaitMs, clock: Date.now });
  holder = new Database(path);
  holder.run('BEGIN IMMEDIATE');
  const accounts = () => (holder!.query('SELECT name FROM accounts ORDER BY name').values() as string[][]).map((r) => r[0]);
  return { store, holder, accounts };
}

describe('SQLite: a write lock held by another connection', () => {
  it('is waited for on a timer, the event loop running, and the write commits once it is free', async () => {
    const { store, holder, accounts } = await lockedStore(5000);
    setTimeout(() => holder.run('COMMIT'), 400);
    const r = await largestTickGap(() => store.transaction((tx) => tx.accounts.create({ name: 'after the lock', plan: 'starter' })));
    expect(r.result).toMatchObject({ status: 'fulfilled', value: { name: 'after the lock' } });
    expect(r.ms).toBeGreaterThanOrEqual(390);
    // SQLite's busy handler would have slept 400 ms on this thread, the timer with it.
    expect(r.gap).toBeLessThan(100);
    expect(accounts()).toEqual(['after the lock']);
  });

  it('lets the units that arrive while it waits join the same batch', async () => {
    const { store, holder, accounts } = await lockedStore(5000);
    const before = store.stats().batches;
    const first = store.transaction((tx) => tx.accounts.create({ name: 'a', plan: 'starter' }));
    await new Promise((r) => setTimeout(r, 100));
    const second = store.transaction((tx) => tx.accounts.create({ name: 'b', plan: 'starter' }));
    setTimeout(() => holder.run('COMMIT'), 100);
    await Promise.all([first, second]);
    expect(store.stats().batches - before).toBe(1);
    expect(accounts()).toEqual(['a', 'b']);
  });

  it('answers DatabaseUnavailableError to a unit that waited store.busy_timeout_ms, writes nothing of it, and commits the next once the lock is free', async () => {
    const { store, holder, accounts } = await lockedStore(300);
    let sideWriteError: unknown;
    store.background((tx) => tx.health.probeWrite(1), (e) => (sideWriteError = e));
    const r = await largestTickGap(() => store.transaction((tx) => tx.accounts.create({ name: 'too late', plan: 'starter' })));
    expect(r.result.status).toBe('rejected');
    const error = (r.result as PromiseRejectedResult).reason;
    expect(error).toBeInstanceOf(DatabaseUnavailableError);
    expect((error as Error).message).toBe("database unavailable: another process held the database's write lock for 300 ms");
    expect(sideWriteError).toBeInstanceOf(DatabaseUnavailableError);
    expect(r.ms).toBeGreaterThanOrEqual(295);
    expect(r.ms).toBeLessThan(300 + LOCK_RETRY_MAX_MS + 100);
    expect(r.gap).toBeLessThan(100);
    holder.run('COMMIT');
    expect(accounts()).toEqual([]);
    expect(holder.query('SELECT count(*) FROM health_probe').values()).toEqual([[0]]);
    await store.transaction((tx) => tx.accounts.create({ name: 'next', plan: 'starter' }));
    expect(accounts()).toEqual(['next']);
  });
});

describe('beginWhenFree', () => {
  const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

  it('tries again while SQLITE_BUSY and the lock is still wanted', async () => {
    let tries = 0;
    const took = await beginWhenFree(() => {
      if (++tries < 4) throw busy();
    }, () => true);
    expect(took).toBe(true);
    expect(tries).toBe(4);
  });

  it('gives up without the lock when nobody wants it any more', async () => {
    let tries = 0;
    expect(await beginWhenFree(() => (tries++, (() => { throw busy(); })()), () => false)).toBe(false);
    expect(tries).toBe(1);
  });

  it('throws any other error at once (an I/O error is not a lock)', async () => {
    const ioError = Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' });
    await expect(beginWhenFree(() => { throw ioError; }, () => true)).rejects.toBe(ioError);
  });

  it('knows SQLITE_BUSY and its extended codes', () => {
    expect(isBusy(busy())).toBe(true);
    expect(isBusy({ code: 'SQLITE_BUSY_RECOVERY' })).toBe(true);
    expect(isBusy({ code: 'SQLITE_LOCKED' })).toBe(false);
    expect(isBusy(null)).toBe(false);
    expect(isBusy(new Error('SQLITE_BUSY'))).toBe(false);
  });
});
