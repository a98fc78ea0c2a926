import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../test/helpers/memory-store';
import { testStoreUrl } from '../../test/helpers/postgres';
import { createStore, SecretKeyMismatchError, type Store } from '.';
import { openDatabase } from './database';
import { LATEST_VERSION } from './migration-steps';
import { postgresConnection } from './sql/postgres/connection';

// Several appliances on one PostgreSQL database (contract.md "High availability"): each
// store here is one appliance's connection. Runs in the vitest project "postgres" only.

const open: Store[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** `n` appliances on one fresh database, sharing one secret.key (as the README says to). */
function appliances(n: number, clock: () => number, keyFile = join(mkdtempSync(join(tmpdir(), 'va-key-')), 'secret.key')) {
  const url = testStoreUrl()!;
  const stores = Array.from({ length: n }, () => createStore({ path: join(tmpdir(), 'unused.db'), url, keyFile, busyTimeoutMs: 5000, clock }));
  open.push(...stores);
  return { url, keyFile, stores };
}

const queue = async (store: Store, accountId: string, numbers: string[], now: number) =>
  store.writes.run(() =>
    store.calls.enqueue(
      numbers.map((phoneNumber) => ({ accountId, credentialId: null, source: 'api' as const, phoneNumber, message: 'm' })),
      now,
    ),
  );

describe('one list of migrations for both stores', () => {
  it('gives PostgreSQL the same tables and columns as SQLite, at the same version', () => {
    const sqlite = openDatabase({ path: join(mkdtempSync(join(tmpdir(), 'va-schema-')), 'voice-alert.db'), busyTimeoutMs: 1000 });
    const pg = postgresConnection({ url: testStoreUrl()!, statementTimeoutMs: 5000 });
    try {
      const tables = (sqlite.query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`).all() as { name: string }[]).map((t) => t.name);
      const sqliteColumns = Object.fromEntries(tables.map((t) => [t, (sqlite.query(`SELECT name FROM pragma_table_info('${t}') ORDER BY name`).all() as { name: string }[]).map((c) => c.name)]));
      const pgColumns: Record<string, string[]> = {};
      for (const r of pg
        .query(`SELECT table_name AS t, column_name AS c FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> 'schema_version' AND column_name <> 'rowid' ORDER BY table_name, column_name`)
        .all() as { t: string; c: string }[]) {
        (pgColumns[r.t] ??= []).push(r.c);
      }
      expect(pgColumns).toEqual(sqliteColumns);
      expect((pg.query('SELECT max(version) AS v FROM schema_version').get() as { v: number }).v).toBe(LATEST_VERSION);
      expect((sqlite.query('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(LATEST_VERSION);
    } finally {
      sqlite.close();
      pg.close();
    }
  });
});

describe('several appliances on one PostgreSQL', () => {
  it('each queued call is claimed by exactly one appliance, and a number never has two calls at once across them', async () => {
    const clock = manualClock();
    const { stores } = appliances(2, clock);
    const [a, b] = stores as [Store, Store];
    const account = a.accounts.create({ name: 'acme', plan: 'enterprise' });
    const numbers = Array.from({ length: 20 }, (_, i) => `53212345${String(i).padStart(2, '0')}`);
    await queue(b, account.id, numbers, clock());
    await queue(a, account.id, ['5321234500'], clock() + 1); // a second call to a number already queued
    const claimed: { by: string; id: string; number: string }[] = [];
    for (let i = 0; i < 30; i++) {
      const [name, store] = i % 2 === 0 ? ['a', a] : ['b', b];
      const call = await store.writes.run(() => store.calls.claim(clock() + 10, 60_000));
      if (call) claimed.push({ by: name as string, id: call.id, number: call.phoneNumber });
    }
    expect(claimed).toHaveLength(20);
    expect(new Set(claimed.map((c) => c.id)).size).toBe(20);
    expect(new Set(claimed.map((c) => c.by))).toEqual(new Set(['a', 'b']));
    // The second call to 5321234500 waits while the first is in progress, whichever appliance holds it.
    expect(claimed.filter((c) => c.number === '5321234500')).toHaveLength(1);
  });

  it("a call held by an appliance that died is claimed by another once the lease ran out, not before", async () => {
    const clock = manualClock();
    const { stores } = appliances(2, clock);
    const [dead, alive] = stores as [Store, Store];
    const account = alive.accounts.create({ name: 'acme', plan: 'enterprise' });
    const [id] = await queue(alive, account.id, ['5321234567'], clock());
    expect((await dead.writes.run(() => dead.calls.claim(clock(), 30_000)))?.id).toBe(id);
    await dead.close();
    open.splice(open.indexOf(dead), 1);
    clock.advance(29_000);
    expect(await alive.writes.run(() => alive.calls.claim(clock(), 30_000))).toBeNull();
    clock.advance(2_000);
    const taken = await alive.writes.run(() => alive.calls.claim(clock(), 30_000));
    expect(taken).toMatchObject({ id, from: 'dialing', attempts: 2 });
  });

  it('per-number pacing holds across appliances: a number dialled by one is not dialled by another within the gap', async () => {
    const clock = manualClock();
    const { stores } = appliances(2, clock);
    const [a, b] = stores as [Store, Store];
    const account = a.accounts.create({ name: 'acme', plan: 'enterprise' });
    const other = a.accounts.create({ name: 'other', plan: 'enterprise' });
    await queue(a, account.id, ['5321234567'], clock());
    await queue(b, other.id, ['5321234567'], clock()); // another account: not bundled, paced
    const pacing = { gapMs: 60_000, perHour: 0 };
    const first = await a.writes.run(() => a.calls.claim(clock(), 1_000, pacing));
    expect(first).not.toBeNull();
    await a.writes.run(() => a.calls.move(first!.id, { from: 'dialing', to: 'failed', at: clock(), attempt: first!.attempts, finished: true }));
    clock.advance(30_000);
    expect(await b.writes.run(() => b.calls.claim(clock(), 1_000, pacing))).toBeNull();
    clock.advance(31_000);
    expect((await b.writes.run(() => b.calls.claim(clock(), 1_000, pacing)))?.accountId).toBe(other.id);
  });

  it('one appliance leads (callbacks, escalations); when it is gone another takes over', async () => {
    const clock = manualClock();
    const { stores } = appliances(2, clock);
    const [a, b] = stores as [Store, Store];
    expect(a.leads()).toBe(true);
    expect(b.leads()).toBe(false);
    await a.close();
    open.splice(open.indexOf(a), 1);
    // Rechecked at most once a second.
    await expect.poll(() => b.leads(), { timeout: 5_000, interval: 200 }).toBe(true);
  });

  it('a key serialized in one write transaction is held against every other connection until COMMIT', async () => {
    const clock = manualClock();
    const { url, stores } = appliances(1, clock);
    const [a] = stores as [Store];
    const other = postgresConnection({ url, statementTimeoutMs: 5000 });
    const tryKey = (key: string) =>
      (other.query('SELECT pg_try_advisory_xact_lock(hashtextextended($key, 0)) AS got').get({ key }) as { got: number }).got === 1;
    try {
      const seenInside = await a.writes.run(() => {
        a.serializeOn('alert acc_1 disk-full');
        return { same: tryKey('alert acc_1 disk-full'), another: tryKey('alert acc_1 cpu') };
      });
      expect(seenInside).toEqual({ same: false, another: true });
      expect(tryKey('alert acc_1 disk-full')).toBe(true);
    } finally {
      other.close();
    }
  });

  it("refuses to start an appliance whose secret.key cannot decrypt the database's secrets", async () => {
    const clock = manualClock();
    const { url, stores } = appliances(1, clock);
    const [first] = stores as [Store];
    const account = first.accounts.create({ name: 'acme', plan: 'starter' });
    first.credentials.create(account.id);
    const ownKey = join(mkdtempSync(join(tmpdir(), 'va-key-')), 'secret.key');
    expect(() => createStore({ path: join(tmpdir(), 'unused.db'), url, keyFile: ownKey, busyTimeoutMs: 5000, clock })).toThrow(SecretKeyMismatchError);
  });
});

describe('credit on PostgreSQL batches', () => {
  it('charges are taken to succeed and checked before COMMIT; an exhausted account is then answered at once, not by running batches again', async () => {
    const { stores } = appliances(1, Date.now);
    const store = stores[0]!;
    const account = store.accounts.create({ name: 'acme', plan: 'starter' });
    const charge = () => store.writes.run(() => store.usage.tryCharge(account.id, '2026-11', 1, 2));
    expect(await Promise.all([charge(), charge(), charge()])).toEqual([true, true, false]);
    expect(store.writes.stats().runAgain).toBe(1); // the third's check failed: the batch ran again carefully
    expect(await Promise.all([charge(), charge()])).toEqual([false, false]);
    expect(store.writes.stats().runAgain).toBe(1); // known short: asked at once
    expect(store.usage.usedIn(account.id, '2026-11')).toBe(2);
  });
});
