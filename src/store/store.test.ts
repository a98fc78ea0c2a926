import { Database } from 'bun:sqlite';
import { mkdirSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../test/helpers/memory-store';
import { createStore, DatabaseTooNewError, keyFileFor } from '.';
import { sqliteConnection } from './sql/connection';
import { openDatabase } from './sql/sqlite/database';
import { createGroupCommitter } from './sql/sqlite/group-commit';
import { MIGRATIONS } from './migration-steps';
import { createAccountsStore } from './accounts';
import { createUsageStore } from './usage';

const newPath = () => join(mkdtempSync(join(tmpdir(), 'va-store-')), 'data', 'voice-alert.db');

describe('database file', () => {
  it('creates its folder, uses WAL and synchronous=FULL, and records the schema version', async () => {
    const db = openDatabase({ path: newPath(), busyTimeoutMs: 100 });
    expect(db.query('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    expect(db.query('PRAGMA synchronous').get()).toEqual({ synchronous: 2 }); // 2 = FULL
    expect(db.query('PRAGMA user_version').get()).toEqual({ user_version: MIGRATIONS.at(-1)!.version });
    db.close();
  });

  it('numbers its migrations 1, 2, 3… in order: a step added out of order would be skipped on databases past it', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
  });

  it('brings a database made by an older version up step by step', async () => {
    // The reference: a database created at the latest version.
    const fresh = openDatabase({ path: newPath(), busyTimeoutMs: 100 });
    const tables = (db: Database) => db.query("SELECT name FROM sqlite_master WHERE type IN ('table', 'index') ORDER BY name").all();
    const latestTables = tables(fresh);
    fresh.close();
    // As if made by the first release: only step 1 applied.
    const path = newPath();
    mkdirSync(dirname(path), { recursive: true });
    const raw = new Database(path);
    raw.run(MIGRATIONS[0]!.sql);
    raw.run('PRAGMA user_version = 1');
    raw.close();
    const db = openDatabase({ path, busyTimeoutMs: 100 });
    expect(db.query('PRAGMA user_version').get()).toEqual({ user_version: MIGRATIONS.at(-1)!.version });
    expect(tables(db)).toEqual(latestTables);
    db.close();
  });

  it('keeps the credit used in a period across the move to usage shards (step 11), checked exactly from then on', async () => {
    const path = newPath();
    mkdirSync(dirname(path), { recursive: true });
    const raw = new Database(path);
    for (const step of MIGRATIONS.filter((m) => m.version <= 10)) raw.run(step.sql);
    raw.run('PRAGMA user_version = 10');
    raw.run("INSERT INTO accounts (id, name, plan, monthly_credit, disabled, created_at) VALUES ('acc_1', 'a', 'enterprise', 1600, 0, 0)");
    raw.run("INSERT INTO usage (account_id, period, used) VALUES ('acc_1', '2026-11', 1598)");
    raw.close();
    const store = await createStore({ path, busyTimeoutMs: 100, clock: Date.now });
    expect(await store.usage.usedIn('acc_1', '2026-11')).toBe(1598);
    const charges = await Promise.all([1, 2, 3].map(() => store.transaction((tx) => tx.usage.tryCharge('acc_1', '2026-11', 1, 1600))));
    expect(charges.filter(Boolean)).toHaveLength(2);
    expect(await store.usage.usedIn('acc_1', '2026-11')).toBe(1600);
    await store.close();
  });

  it('refuses to open a database newer than the code', async () => {
    const path = newPath();
    await (await createStore({ path, busyTimeoutMs: 100, clock: Date.now })).close();
    const raw = new Database(path);
    raw.run(`PRAGMA user_version = ${MIGRATIONS.at(-1)!.version + 1}`);
    raw.close();
    await expect(createStore({ path, busyTimeoutMs: 100, clock: Date.now })).rejects.toThrow(DatabaseTooNewError);
  });

  it('keeps API secrets and webhook keys out of the database file, under a 0600 key file', async () => {
    const path = newPath();
    const store = await createStore({ path, busyTimeoutMs: 100, clock: Date.now });
    const k = await store.transaction(async (tx) => tx.credentials.create((await tx.accounts.create({ name: 'a', plan: 'starter' })).id));
    await store.close(); // checkpoints the WAL into the main file
    const files = [path, `${path}-wal`].map((p) => {
      try {
        return readFileSync(p).toString('latin1');
      } catch {
        return '';
      }
    });
    for (const f of files) {
      expect(f.includes(k.apiSecret)).toBe(false);
      expect(f.includes(k.webhookKey)).toBe(false);
    }
    expect(files[0]!.includes(k.apiKey)).toBe(true); // the key is an identifier, stored as is
    expect(statSync(keyFileFor(path)).mode & 0o777).toBe(0o600);

    const again = await createStore({ path, busyTimeoutMs: 100, clock: Date.now });
    const cred = (await again.credentials.findByWebhookKey(k.webhookKey))!;
    expect(cred.apiKey).toBe(k.apiKey);
    expect(await again.credentials.apiSecretOf(cred.id)).toBe(k.apiSecret);
    await again.close();
  });
});

/** A group committer on its own connection (the store keeps its connection to itself), with a table to write. */
async function committer() {
  const raw = openDatabase({ path: newPath(), busyTimeoutMs: 100 });
  const db = sqliteConnection(raw);
  const writes = createGroupCommitter(raw, db, { lockWaitMs: 1000 });
  const acc = await createAccountsStore(db, Date.now).create({ name: 'a', plan: 'starter' });
  const close = async () => {
    await writes.close();
    raw.close();
  };
  return { raw, db, writes, usage: createUsageStore(db), acc, close };
}

describe('group commit', () => {
  it('commits concurrent writes in one transaction and settles each after COMMIT', async () => {
    const { raw, writes, usage, acc, close } = await committer();
    const before = writes.stats();
    const seen: boolean[] = [];
    await Promise.all(
      Array.from({ length: 50 }, () =>
        writes.run(async () => {
          seen.push(raw.inTransaction);
          await usage.charge(acc.id, '2026-11', 1);
        }),
      ),
    );
    expect(seen.every(Boolean)).toBe(true);
    expect(writes.stats()).toEqual({ batches: before.batches + 1, writes: before.writes + 50, runAgain: 0, unguarded: 0 });
    expect(await usage.usedIn(acc.id, '2026-11')).toBe(50);
    await close();
  });

  it('an unguarded unit runs without a savepoint of its own and commits with its batch', async () => {
    const { db, writes, usage, acc, close } = await committer();
    const guarded = writes.run(async () => {
      await usage.charge(acc.id, '2026-11', 1);
      return db.exec('ROLLBACK TO w'); // the unit's own savepoint: there
    });
    const unguarded = writes.unguarded(async () => {
      await usage.charge(acc.id, '2026-11', 2);
      await expect(db.exec('ROLLBACK TO w')).rejects.toThrow(/no such savepoint/);
      return 'queued';
    });
    await guarded; // rolled back to its savepoint, so its charge is gone
    expect(await unguarded).toBe('queued');
    expect(await usage.usedIn(acc.id, '2026-11')).toBe(2);
    expect(writes.stats()).toMatchObject({ batches: 1, writes: 2, unguarded: 1 });
    await close();
  });

  it('an unguarded unit that throws rolls back its whole batch, rejecting every unit in it; the next batch commits', async () => {
    const { db, writes, usage, acc, close } = await committer();
    const before = writes.run(() => usage.charge(acc.id, '2026-11', 1));
    const failing = writes.unguarded(async () => {
      await usage.charge(acc.id, '2026-11', 2); // half done when the next statement fails
      await db.exec('INSERT INTO no_such_table VALUES (1)');
    });
    const after = writes.run(() => usage.charge(acc.id, '2026-11', 4));
    const errors: unknown[] = [];
    writes.runDetached(() => usage.charge(acc.id, '2026-11', 8), (e) => errors.push(e));
    for (const unit of [before, failing, after]) await expect(unit).rejects.toThrow(/no_such_table/);
    expect(String(errors[0])).toMatch(/no_such_table/);
    expect(await usage.usedIn(acc.id, '2026-11')).toBe(0);
    expect(writes.stats()).toMatchObject({ batches: 0, writes: 0, unguarded: 0 });

    await writes.unguarded(() => usage.charge(acc.id, '2026-11', 16));
    expect(await usage.usedIn(acc.id, '2026-11')).toBe(16);
    await close();
  });
});

describe('detached writes', () => {
  it('commit with the next batch; a failing one is reported alone', async () => {
    const { db, writes, usage, acc, close } = await committer();
    const errors: unknown[] = [];
    writes.runDetached(() => usage.charge(acc.id, 'p', 1), (e) => errors.push(e));
    writes.runDetached(() => db.exec('INSERT INTO no_such_table VALUES (1)'), (e) => errors.push(e));
    await writes.run(() => usage.charge(acc.id, 'p', 1));
    expect(await usage.usedIn(acc.id, 'p')).toBe(2);
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toMatch(/no_such_table/);
    await close();
  });
});

describe('alerts', () => {
  it('a database with calls from before alerts gets one alert per request, state from its calls', async () => {
    const clock = manualClock();
    const path = newPath();
    mkdirSync(dirname(path), { recursive: true });
    const raw = new Database(path, { create: true });
    for (const step of MIGRATIONS.filter((m) => m.version <= 4)) raw.run(step.sql);
    raw.run('PRAGMA user_version = 4');
    raw.run(`INSERT INTO accounts (id, name, plan, created_at) VALUES ('acc_1', 'a', 'starter', 1)`);
    const call = (id: string, at: number, finished: number | null, acked: number | null) =>
      raw.run(
        `INSERT INTO calls (id, account_id, credential_id, source, phone_number, message, state, attempts, run_after, created_at, updated_at, finished_at, acknowledged_at)
         VALUES (?, 'acc_1', 'cred_1', 'webhook', '5321234567', 'disk full', 'x', 1, ?, ?, ?, ?, ?)`,
        [id, at, at, at, finished, acked],
      );
    call('call_A1', 100, 200, null); // one request, two numbers: one alert, nobody pressed 1
    call('call_A2', 100, 210, null);
    call('call_B1', 300, null, null); // still going on: open
    call('call_C1', 400, 450, 440); // acknowledged
    raw.close();
    const store = await createStore({ path, busyTimeoutMs: 100, clock });
    const alertOf = async (id: string) => (await store.alerts.get((await store.calls.get(id))!.alertId!))!;
    expect((await alertOf('call_A1')).id).toBe((await alertOf('call_A2')).id);
    expect(await alertOf('call_A1')).toMatchObject({ id: 'alt_A1', state: 'unacknowledged', key: null, source: 'webhook', message: 'disk full' });
    expect((await alertOf('call_B1')).state).toBe('open');
    expect(await alertOf('call_C1')).toMatchObject({ state: 'acknowledged', acknowledgedAt: 440 });
    expect(await store.alerts.list({ accountId: 'acc_1' })).toHaveLength(3);
    await store.close();
  });
});

describe('panel users', () => {
  it('a version 8 database keeps its users through migration 9; their language starts unset and is remembered once chosen', async () => {
    const path = newPath();
    mkdirSync(dirname(path), { recursive: true });
    const raw = new Database(path, { create: true });
    for (const step of MIGRATIONS.filter((m) => m.version <= 8)) raw.run(step.sql);
    raw.run('PRAGMA user_version = 8');
    raw.run(`INSERT INTO panel_users (id, login, role, account_id, password_hash, created_at) VALUES ('usr_1', 'root', 'admin', NULL, 'h', 1)`);
    raw.close();
    const store = await createStore({ path, busyTimeoutMs: 100, clock: Date.now });
    expect(await store.panelUsers.findByLogin('ROOT')).toMatchObject({ id: 'usr_1', role: 'admin', language: null });
    expect(await store.transaction((tx) => tx.panelUsers.setLanguage('usr_1', 'en'))).toBe(true);
    expect(await store.transaction((tx) => tx.panelUsers.setLanguage('usr_none', 'en'))).toBe(false);
    expect((await store.panelUsers.get('usr_1'))!.language).toBe('en');
    await store.close();
  });
});
