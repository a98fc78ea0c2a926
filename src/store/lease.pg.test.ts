import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testStoreUrl } from '../../test/helpers/postgres';
import { createStore, newLease, openSqlDatabase, type Store } from '.';
import { leasedRows } from './lease';

/**
 * docs/high-availability.md "High availability": work one appliance must do alone is a row claimed under a lease
 * (store/lease.ts), timed by the database's clock. Two appliances are two stores on one
 * PostgreSQL database; an appliance whose clock is hours off is a store with a skewed clock
 * whose services pass that clock's `now` (as they would in production).
 */
const HOUR = 3_600_000;
const stores: Store[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const c of closers.splice(0)) await c();
});

/** `n` appliances on one fresh database, each with its own clock (ms added to the real one). */
async function appliances(...skewsMs: number[]) {
  const url = testStoreUrl()!;
  const dir = mkdtempSync(join(tmpdir(), 'va-lease-pg-'));
  const opened: { store: Store; clock: () => number }[] = [];
  for (const [i, skew] of skewsMs.entries()) {
    const clock = () => Date.now() + skew;
    const store = await createStore({ url, path: join(dir, `unused-${i}.db`), busyTimeoutMs: 1000, clock });
    stores.push(store);
    opened.push({ store, clock });
  }
  const account = await opened[0]!.store.transaction((tx) => tx.accounts.create({ name: 'a', plan: 'starter' }));
  return { url, dir, account, opened };
}

const windowAt = (accountId: string, startsAt: number) => ({ accountId, startsAt, endsAt: startsAt + HOUR * 48, reason: 'r', matches: [] });

describe('one lease (store/lease.ts) on one PostgreSQL', () => {
  it('two appliances claiming at once take disjoint rows, and together all of them', async () => {
    const { account, opened } = await appliances(0, 0);
    const [a, b] = opened as [(typeof opened)[0], (typeof opened)[0]];
    await a.store.transaction(async (tx) => {
      for (let i = 0; i < 40; i++) await tx.maintenance.create(windowAt(account.id, Date.now() - 60_000), Date.now());
    });
    const took = { a: [] as string[], b: [] as string[] };
    // Each appliance's first claim stays in its open transaction until both have claimed: the
    // two claims are then truly at once (one's rows locked while the other's runs), however the
    // machine schedules them. Left to race, one appliance once took all 40 before the other's
    // first statement ran (a full run on a busy machine, 2026-12-02).
    let claimedFirst = 0;
    let bothClaimed!: () => void;
    const both = new Promise<void>((resolve) => (bothClaimed = resolve));
    const claimAll = async (who: 'a' | 'b', store: Store, clock: () => number) => {
      const lease = newLease(30_000);
      for (let first = true; ; first = false) {
        const rows = await store.transaction(async (tx) => {
          const claimed = await tx.maintenance.claimStarts(clock(), 3, lease);
          if (first && ++claimedFirst === 2) bothClaimed();
          if (first) await both;
          return claimed;
        });
        if (rows.length === 0) return;
        took[who].push(...rows.map((r) => r.id));
      }
    };
    await Promise.all([claimAll('a', a.store, a.clock), claimAll('b', b.store, b.clock)]);
    expect(took.a.length).toBeGreaterThan(0);
    expect(took.b.length).toBeGreaterThan(0);
    expect(took.a.filter((id) => took.b.includes(id))).toEqual([]);
    expect(new Set([...took.a, ...took.b]).size).toBe(40);
  });

  it('an expired lease is taken over; the late owner can then finish, renew and release nothing', async () => {
    const { url, dir, account, opened } = await appliances(0, 0);
    const [a, b] = opened as [(typeof opened)[0], (typeof opened)[0]];
    const w = await a.store.transaction((tx) => tx.maintenance.create(windowAt(account.id, Date.now() - 60_000), Date.now()));
    const late = newLease(150);
    const next = newLease(30_000);
    expect((await a.store.transaction((tx) => tx.maintenance.claimStarts(a.clock(), 10, late))).map((r) => r.id)).toEqual([w.id]);
    // Held: nobody else gets it.
    expect(await b.store.transaction((tx) => tx.maintenance.claimStarts(b.clock(), 10, next))).toEqual([]);
    await Bun.sleep(250); // the database's clock passes the lease's end
    expect((await b.store.transaction((tx) => tx.maintenance.claimStarts(b.clock(), 10, next))).map((r) => r.id)).toEqual([w.id]);

    // The late owner wakes up: no finish, no renewal, no release of what it lost.
    expect(await a.store.transaction((tx) => tx.maintenance.markStarted(w.id, late.owner, a.clock()))).toBe(false);
    const db = await openSqlDatabase({ url, path: join(dir, 'raw.db'), busyTimeoutMs: 1000 });
    closers.push(() => db.close());
    const rows = (conn: Parameters<typeof leasedRows>[0]) => leasedRows(conn, { table: 'maintenance_windows', key: 'id' });
    expect(await db.transaction((conn) => rows(conn).renew(w.id, late, a.clock()))).toBe(false);
    expect(await db.transaction((conn) => rows(conn).release(late.owner))).toBe(0);
    expect(await a.store.transaction((tx) => tx.maintenance.claimStarts(a.clock(), 10, newLease(30_000)))).toEqual([]); // still b's
    // The holder renews and finishes it.
    expect(await db.transaction((conn) => rows(conn).renew(w.id, next, b.clock()))).toBe(true);
    expect(await b.store.transaction((tx) => tx.maintenance.markStarted(w.id, next.owner, b.clock()))).toBe(true);
  });

  it('"due" is the database\'s clock: an appliance 6 h ahead claims nothing early, one 6 h behind claims what is due', async () => {
    const { account, opened } = await appliances(6 * HOUR, -6 * HOUR);
    const [ahead, behind] = opened as [(typeof opened)[0], (typeof opened)[0]];
    const lease = () => newLease(30_000);
    const real = Date.now();

    // Maintenance windows: one starting in an hour, one a minute ago.
    const soon = await ahead.store.transaction((tx) => tx.maintenance.create(windowAt(account.id, real + HOUR), real));
    const due = await ahead.store.transaction((tx) => tx.maintenance.create(windowAt(account.id, real - 60_000), real));
    expect(await ahead.store.maintenance.anyStartDue(ahead.clock())).toBe(true);
    expect((await ahead.store.transaction((tx) => tx.maintenance.claimStarts(ahead.clock(), 10, lease()))).map((w) => w.id)).toEqual([due.id]);
    expect(await behind.store.transaction((tx) => tx.maintenance.claimStarts(behind.clock(), 10, lease()))).toEqual([]);
    void soon;

    // On-call schedules: the next hand-off in an hour, and one a minute ago.
    const schedule = (name: string, watchAt: number) =>
      ahead.store.transaction((tx) =>
        tx.schedules.create({ accountId: account.id, name, timeZone: 'UTC', layers: [], watchedName: null, watchedNumber: null, watchAt }, real),
      );
    await schedule('later', real + HOUR);
    expect(await ahead.store.schedules.anyWatchDue(ahead.clock())).toBe(false);
    expect(await ahead.store.transaction((tx) => tx.schedules.claimWatch(ahead.clock(), 10, lease()))).toEqual([]);
    const now = await schedule('now', real - 60_000);
    expect(await behind.store.schedules.anyWatchDue(behind.clock())).toBe(true);
    expect((await behind.store.transaction((tx) => tx.schedules.claimWatch(behind.clock(), 10, lease()))).map((s) => s.id)).toEqual([now.id]);

    // Self-tests: a trunk due in an hour, one due a minute ago.
    await ahead.store.transaction(async (tx) => {
      await tx.selfTests.schedule('later', HOUR, ahead.clock());
      await tx.selfTests.schedule('due', -60_000, ahead.clock());
    });
    expect(await ahead.store.transaction((tx) => tx.selfTests.claim('later', ahead.clock(), lease()))).toBe(false);
    expect(await behind.store.transaction((tx) => tx.selfTests.claim('due', behind.clock(), lease()))).toBe(true);

    // Heartbeats: deadlines from pings (the database's clock); one with an hour left, one a second.
    const heartbeat = (name: string, intervalS: number) =>
      ahead.store.transaction(async (tx) => {
        const tokenHash = new TextEncoder().encode(name.padEnd(32, '.'));
        const h = await tx.heartbeats.create({ accountId: account.id, name, tokenHash, intervalS, graceS: 0, policyId: null, numbers: ['5321111111'], message: null }, real);
        await tx.heartbeats.ping(tokenHash, ahead.clock());
        return h;
      });
    await heartbeat('hourly', 3600);
    const quick = await heartbeat('quick', 1);
    expect(await ahead.store.heartbeats.anyDue(ahead.clock())).toBe(false);
    expect(await ahead.store.transaction((tx) => tx.heartbeats.claimDue(ahead.clock(), 10, lease()))).toEqual([]);
    await Bun.sleep(1100);
    expect((await behind.store.transaction((tx) => tx.heartbeats.claimDue(behind.clock(), 10, lease()))).map((h) => h.id)).toEqual([quick.id]);
  });
});
