import { SQL } from 'bun';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../test/helpers/memory-store';
import { testStoreUrl } from '../../test/helpers/postgres';
import { createStore, SecretKeyMismatchError, type Store } from '.';
import { LATEST_VERSION } from './migration-steps';
import { openPostgres } from './sql/postgres/database';
import { openDatabase } from './sql/sqlite/database';

// Several appliances on one PostgreSQL database (docs/high-availability.md): each
// store here is one appliance's pool. Runs in the vitest project "postgres" only.

const open: Store[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** `n` appliances on one fresh database, sharing one secret.key (as docs/high-availability.md says to). */
async function appliances(n: number, clock: () => number, keyFile = join(mkdtempSync(join(tmpdir(), 'va-key-')), 'secret.key')) {
  const url = testStoreUrl()!;
  const stores: Store[] = [];
  // One after another: the first makes the secret.key the others read.
  for (let i = 0; i < n; i++) stores.push(await createStore({ path: join(tmpdir(), 'unused.db'), url, keyFile, busyTimeoutMs: 5000, clock }));
  open.push(...stores);
  return { url, keyFile, stores };
}

const queue = async (store: Store, accountId: string, numbers: string[], now: number) =>
  store.transaction((tx) =>
    tx.calls.enqueue(
      numbers.map((phoneNumber) => ({ accountId, credentialId: null, source: 'api' as const, phoneNumber, message: 'm' })),
      now,
    ),
  );

const newAccount = (store: Store, name: string) => store.transaction((tx) => tx.accounts.create({ name, plan: 'enterprise' }));

describe('one list of migrations for both stores', () => {
  it('gives PostgreSQL the same tables and columns as SQLite, at the same version', async () => {
    const sqlite = openDatabase({ path: join(mkdtempSync(join(tmpdir(), 'va-schema-')), 'voice-alert.db'), busyTimeoutMs: 1000 });
    const pg = await openPostgres({ url: testStoreUrl()!, timeoutMs: 5000, poolSize: 2 });
    try {
      const tables = (sqlite.query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`).all() as { name: string }[]).map((t) => t.name);
      const sqliteColumns = Object.fromEntries(tables.map((t) => [t, (sqlite.query(`SELECT name FROM pragma_table_info('${t}') ORDER BY name`).all() as { name: string }[]).map((c) => c.name)]));
      const pgColumns: Record<string, string[]> = {};
      for (const r of (await pg.reader
        .query(`SELECT table_name AS t, column_name AS c FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> 'schema_version' AND column_name <> 'rowid' ORDER BY table_name, column_name`)
        .all()) as { t: string; c: string }[]) {
        (pgColumns[r.t] ??= []).push(r.c);
      }
      expect(pgColumns).toEqual(sqliteColumns);
      expect(((await pg.reader.query('SELECT max(version) AS v FROM schema_version').get()) as { v: number }).v).toBe(LATEST_VERSION);
      expect((sqlite.query('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(LATEST_VERSION);
    } finally {
      sqlite.close();
      await pg.close();
    }
  });
});

describe('several appliances on one PostgreSQL', () => {
  it('each queued call is claimed by exactly one appliance, and a number never has two calls at once across them', async () => {
    const clock = manualClock();
    const { stores } = await appliances(2, clock);
    const [a, b] = stores as [Store, Store];
    const account = await newAccount(a, 'acme');
    const numbers = Array.from({ length: 20 }, (_, i) => `53212345${String(i).padStart(2, '0')}`);
    await queue(b, account.id, numbers, clock());
    await queue(a, account.id, ['5321234500'], clock() + 1); // a second call to a number already queued
    const claimed: { by: string; id: string; number: string }[] = [];
    for (let i = 0; i < 30; i++) {
      const [name, store] = i % 2 === 0 ? ['a', a] : ['b', b];
      const call = await store.transaction((tx) => tx.calls.claim(clock() + 10, 60_000));
      if (call) claimed.push({ by: name as string, id: call.id, number: call.phoneNumber });
    }
    expect(claimed).toHaveLength(20);
    expect(new Set(claimed.map((c) => c.id)).size).toBe(20);
    expect(new Set(claimed.map((c) => c.by))).toEqual(new Set(['a', 'b']));
    // The second call to 5321234500 waits while the first is in progress, whichever appliance holds it.
    expect(claimed.filter((c) => c.number === '5321234500')).toHaveLength(1);
  });

  it('claims made at the same moment by two appliances never hand out one call twice', async () => {
    const clock = manualClock();
    const { stores } = await appliances(2, clock);
    const [a, b] = stores as [Store, Store];
    const account = await newAccount(a, 'acme');
    const numbers = Array.from({ length: 20 }, (_, i) => `53212346${String(i).padStart(2, '0')}`);
    await queue(a, account.id, numbers, clock());
    // Rounds of ten at once; a claim that finds every candidate taken by another right now gets none.
    const ids: string[] = [];
    for (let round = 0; round < 20 && ids.length < 20; round++) {
      const claims = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? a : b).transaction((tx) => tx.calls.claim(clock() + 10, 60_000))));
      for (const c of claims) if (c) ids.push(c.id);
    }
    expect(ids).toHaveLength(20);
    expect(new Set(ids).size).toBe(20);
  });

  it("a call held by an appliance that died is claimed by another once the lease ran out, not before, by the database's clock", async () => {
    const clock = manualClock();
    const { stores } = await appliances(2, clock);
    const [dead, alive] = stores as [Store, Store];
    const account = await newAccount(alive, 'acme');
    const [id] = await queue(alive, account.id, ['5321234567'], clock());
    expect((await dead.transaction((tx) => tx.calls.claim(clock(), 1_000)))?.id).toBe(id);
    await dead.close();
    open.splice(open.indexOf(dead), 1);
    // The other appliance's clock runs an hour ahead: the lease is still measured by the
    // database's clock, so the call is not taken before it ran out there.
    clock.advance(3_600_000);
    expect(await alive.transaction((tx) => tx.calls.claim(clock(), 1_000))).toBeNull();
    await new Promise((r) => setTimeout(r, 1_200));
    const taken = await alive.transaction((tx) => tx.calls.claim(clock(), 1_000));
    expect(taken).toMatchObject({ id, from: 'dialing', attempts: 2 });
  });

  it('per-number pacing holds across appliances: a number dialled by one is not dialled by another within the gap', async () => {
    const clock = manualClock();
    const { stores } = await appliances(2, clock);
    const [a, b] = stores as [Store, Store];
    const account = await newAccount(a, 'acme');
    const other = await newAccount(a, 'other');
    await queue(a, account.id, ['5321234567'], clock());
    await queue(b, other.id, ['5321234567'], clock()); // another account: not bundled, paced
    const pacing = { gapMs: 60_000, perHour: 0 };
    const first = await a.transaction((tx) => tx.calls.claim(clock(), 1_000, pacing));
    expect(first).not.toBeNull();
    await a.transaction((tx) => tx.calls.move(first!.id, { from: 'dialing', to: 'failed', at: clock(), attempt: first!.attempts, finished: true }));
    clock.advance(30_000);
    expect(await b.transaction((tx) => tx.calls.claim(clock(), 1_000, pacing))).toBeNull();
    clock.advance(31_000);
    expect((await b.transaction((tx) => tx.calls.claim(clock(), 1_000, pacing)))?.accountId).toBe(other.id);
  });

  it('a key serialized in one transaction is held against every other connection until COMMIT', async () => {
    const clock = manualClock();
    const { url, stores } = await appliances(1, clock);
    const [a] = stores as [Store];
    const other = new SQL({ url, max: 1 });
    const tryKey = async (key: string) => ((await other.unsafe('SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS got', [key])) as { got: boolean }[])[0]!.got;
    try {
      const seenInside = await a.transaction(async (tx) => {
        await tx.serializeOn('alert acc_1 disk-full');
        // Held from the transaction's next statement on (the lock is sent ahead of it).
        await tx.alerts.findOpen('acc_1', 'disk-full');
        return { same: await tryKey('alert acc_1 disk-full'), another: await tryKey('alert acc_1 cpu') };
      });
      expect(seenInside).toEqual({ same: false, another: true });
      expect(await tryKey('alert acc_1 disk-full')).toBe(true);
    } finally {
      await other.close();
    }
  });

  it('copies of one alert key on two appliances at once take turns: the second sees what the first wrote', async () => {
    const clock = manualClock();
    const { stores } = await appliances(2, clock);
    const [a, b] = stores as [Store, Store];
    const account = await newAccount(a, 'acme');
    // What the intake does with an alert key (src/alerts): lock it, look for its open alert, make one if none.
    const raise = (store: Store) =>
      store.transaction(async (tx) => {
        await tx.serializeOn(`alert ${account.id} disk/db1`);
        const existing = await tx.alerts.findOpen(account.id, 'disk/db1');
        if (existing) return { id: existing.id, made: false };
        await new Promise((r) => setTimeout(r, 50)); // the other copy arrives meanwhile
        return { id: await tx.alerts.create({ accountId: account.id, credentialId: null, key: 'disk/db1', source: 'api', message: 'disk full' }, clock()), made: true };
      });
    const [first, second] = await Promise.all([raise(a), raise(b)]);
    expect([first.made, second.made].sort()).toEqual([false, true]);
    expect(first.id).toBe(second.id);
    expect(await a.alerts.list({ accountId: account.id })).toHaveLength(1);
  });

  it("refuses to start an appliance whose secret.key cannot decrypt the database's secrets", async () => {
    const clock = manualClock();
    const { url, stores } = await appliances(1, clock);
    const [first] = stores as [Store];
    await first.transaction(async (tx) => void (await tx.credentials.create((await tx.accounts.create({ name: 'acme', plan: 'starter' })).id)));
    const ownKey = join(mkdtempSync(join(tmpdir(), 'va-key-')), 'secret.key');
    await expect(createStore({ path: join(tmpdir(), 'unused.db'), url, keyFile: ownKey, busyTimeoutMs: 5000, clock })).rejects.toThrow(SecretKeyMismatchError);
  });
});

describe('credit on PostgreSQL', () => {
  it('the last credits go to exactly as many requests as they cover, however many appliances charge at once', async () => {
    const { stores } = await appliances(2, Date.now);
    const [a, b] = stores as [Store, Store];
    const account = await a.transaction((tx) => tx.accounts.create({ name: 'acme', plan: 'starter' }));
    const charge = (store: Store) => store.transaction((tx) => tx.usage.tryCharge(account.id, '2026-11', 1, 2));
    const first = await Promise.all([charge(a), charge(b), charge(a)]);
    expect(first.filter(Boolean)).toHaveLength(2);
    expect(await Promise.all([charge(a), charge(b)])).toEqual([false, false]);
    expect(await a.usage.usedIn(account.id, '2026-11')).toBe(2);
    // The last credit, raced by both appliances: one wins.
    await a.transaction((tx) => tx.usage.refund(account.id, '2026-11', 1));
    expect((await Promise.all([charge(a), charge(b)])).sort()).toEqual([false, true]);
    expect(await b.usage.usedIn(account.id, '2026-11')).toBe(2);
  });

  it('bookkeeping writes that arrive while a batch commits share the next transaction, and all of them land', async () => {
    const { stores } = await appliances(1, Date.now);
    const store = stores[0]!;
    const account = await newAccount(store, 'acme');
    const record = (n: number) =>
      store.background(
        (tx) => tx.history.record({ at: Date.now(), requestId: `req_${n}`, endpoint: 'webhook', sourceIp: '127.0.0.1', status: 200, message: 'Success', accountId: account.id, credentialId: null }),
        (e) => {
          throw e;
        },
      );
    const before = store.stats().batches;
    record(0);
    // The first batch is under way (it starts in the next turn); 40 more arrive in later turns meanwhile.
    await new Promise((r) => setImmediate(r));
    for (let n = 1; n <= 40; n++) {
      record(n);
      if (n % 10 === 0) await new Promise((r) => setImmediate(r));
    }
    await store.flush();
    expect(await store.history.count()).toBe(41);
    // One transaction for the first, then one or two for the forty (one may begin before the last ten came), not one per turn.
    expect(store.stats().batches - before).toBeLessThanOrEqual(3);
  });
});
