import { Database } from 'bun:sqlite';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../test/helpers/memory-store';
import { BINARY } from '../../test/helpers/paths';
import { testStoreUrl } from '../../test/helpers/postgres';
import { createStore, keyFileFor, type Store } from '.';
import { copyToPostgres, CopyRefusedError, type CopiedTable } from './copy-to-postgres';
import { MIGRATIONS } from './migration-steps';
import type { SqlDatabase } from './sql/database';
import { openMigratedPostgres } from './sql/postgres/database';

// voice-alert migrate-to-postgres (issue 16 §1): a SQLite appliance's data into an empty PostgreSQL.

const newPath = () => join(mkdtempSync(join(tmpdir(), 'va-copy-')), 'data', 'voice-alert.db');

/** A SQLite appliance with some of everything, written through the store like the appliance does. */
async function sqliteAppliance() {
  const clock = manualClock();
  const path = newPath();
  const store = await createStore({ path, busyTimeoutMs: 1000, clock });
  const { account, key, alertId, calls } = await store.transaction(async (tx) => {
    const account = await tx.accounts.create({ name: 'Acme', plan: 'professional' });
    const key = await tx.credentials.create(account.id, { requireSignature: true });
    await tx.outbox.setTarget(account.id, { url: 'https://hooks.example/cb', secret: 'vcs_sealed' });
    await tx.panelUsers.create({ login: 'Owner@Acme.test', role: 'owner', accountId: account.id, passwordHash: 'h' });
    await tx.policies.create({ accountId: account.id, name: 'oncall', steps: [{ numbers: ['5321111111'], wait_s: 300 }], rounds: 2 }, clock());
    const alertId = await tx.alerts.create({ accountId: account.id, credentialId: key.id, key: 'disk/db1', source: 'api', message: 'Disk dolu' }, clock());
    const calls = await tx.calls.enqueue(
      ['5321111111', '5322222222', '5323333333'].map((phoneNumber) => ({ accountId: account.id, credentialId: key.id, source: 'api' as const, phoneNumber, message: 'Disk dolu', alertId })),
      clock(),
    );
    return { account, key, alertId, calls };
  });
  clock.advance(1000);
  await store.transaction(async (tx) => {
    const first = (await tx.calls.claim(clock(), 60_000))!;
    await tx.calls.move(first.id, { from: 'dialing', to: 'completed', at: clock(), attempt: 1, sipCode: 200, answered: true, finished: true });
    for (let i = 0; i < 1200; i++) {
      await tx.history.record({ at: clock() + i, requestId: `r${i}`, endpoint: '/api/call', sourceIp: '10.0.0.1', status: 200, message: 'Call queued', accountId: account.id, credentialId: key.id });
    }
  });
  await store.flush();
  return { clock, path, store, account, key, alertId, calls };
}

const pgStore = (url: string, sqlitePath: string, clock: () => number): Promise<Store> =>
  createStore({ path: newPath(), url, keyFile: keyFileFor(sqlitePath), busyTimeoutMs: 5000, clock });

/** As `voice-alert migrate-to-postgres` does: the target opened (and migrated) only once the file passed its checks. */
async function copy(from: string, to: string): Promise<CopiedTable[]> {
  let target: SqlDatabase | null = null;
  try {
    return await copyToPostgres({ from }, async (work) => {
      target = await openMigratedPostgres({ url: to, timeoutMs: 30_000, poolSize: 2 });
      return target.transaction(work);
    });
  } finally {
    await (target as SqlDatabase | null)?.close();
  }
}

describe('migrate-to-postgres', () => {
  it('copies every table; the PostgreSQL store reads it all back, decrypts with the same key, and continues where the file stopped', async () => {
    const src = await sqliteAppliance();
    const url = testStoreUrl()!;
    const copied = await copy(src.path, url);
    expect(Object.fromEntries(copied.map((t) => [t.table, t.rows]))).toMatchObject({ accounts: 1, credentials: 1, calls: 3, alerts: 1, api_history: 1200, panel_users: 1, policies: 1, dials: 1 });
    // Parents before children.
    const order = copied.map((t) => t.table);
    expect(order.indexOf('accounts')).toBeLessThan(order.indexOf('calls'));
    expect(order.indexOf('alerts')).toBeLessThan(order.indexOf('calls'));
    expect(order.indexOf('calls')).toBeLessThan(order.indexOf('call_events'));

    const pg = await pgStore(url, src.path, src.clock);
    try {
      expect(await pg.accounts.get(src.account.id)).toEqual(await src.store.accounts.get(src.account.id));
      expect(await pg.credentials.apiSecretOf(src.key.id)).toBe(src.key.apiSecret);
      expect(await pg.outbox.target(src.account.id)).toEqual({ url: 'https://hooks.example/cb', secret: 'vcs_sealed' });
      expect((await pg.panelUsers.findByLogin('owner@acme.test'))?.accountId).toBe(src.account.id);
      expect(await pg.alerts.get(src.alertId)).toEqual(await src.store.alerts.get(src.alertId));
      for (const id of src.calls) expect(await pg.calls.get(id)).toEqual(await src.store.calls.get(id));
      expect(await pg.calls.events(src.calls[0]!)).toEqual(await src.store.calls.events(src.calls[0]!));
      expect(await pg.history.list({ limit: 5 })).toEqual(await src.store.history.list({ limit: 5 }));
      // The queue's order survived: both stores hand out the same next call.
      const next = await pg.transaction((tx) => tx.calls.claim(src.clock(), 60_000));
      expect(next?.id).toBe((await src.store.transaction((tx) => tx.calls.claim(src.clock(), 60_000)))?.id);
      // New rows get ids after the copied ones, not duplicate keys.
      await pg.transaction((tx) => tx.history.record({ at: src.clock(), requestId: 'after', endpoint: '/api/call', sourceIp: '10.0.0.1', status: 200, message: 'Call queued', accountId: null, credentialId: null }));
      const newest = (await pg.history.list({ limit: 1 }))[0]!;
      expect(newest.requestId).toBe('after');
      expect(newest.id).toBeGreaterThan((await src.store.history.list({ limit: 1 }))[0]!.id);
    } finally {
      await pg.close();
      await src.store.close();
    }
  });

  it('refuses a target that already holds data, a file at another schema version, and a missing file; writes nothing', async () => {
    const src = await sqliteAppliance();
    await src.store.close();
    const url = testStoreUrl()!;
    await copy(src.path, url);
    await expect(copy(src.path, url)).rejects.toThrow(CopyRefusedError);
    await expect(copy(src.path, url)).rejects.toThrow(/already holds data \(table accounts\)/);

    const old = newPath();
    mkdirSync(dirname(old), { recursive: true });
    const raw = new Database(old, { create: true });
    for (const step of MIGRATIONS.filter((m) => m.version <= 8)) raw.run(step.sql);
    raw.run('PRAGMA user_version = 8');
    raw.close();
    const fresh = testStoreUrl()!;
    await expect(copy(old, fresh)).rejects.toThrow(/schema version 8.*start this version of voice-alert once on it/);
    await expect(copy('/nonexistent/voice-alert.db', fresh)).rejects.toThrow(/no database at/);
    // Nothing was written by the refusals: a real copy still goes in.
    expect((await copy(src.path, fresh)).find((t) => t.table === 'calls')?.rows).toBe(3);
  });

  it('the command: prints each table and where the secret.key to copy is; a refusal is exit 1 on stderr', async () => {
    const src = await sqliteAppliance();
    await src.store.close();
    const config = join(mkdtempSync(join(tmpdir(), 'va-copy-config-')), 'config.toml');
    writeFileSync(config, '');
    const url = testStoreUrl()!;
    const run = () => spawnSync(BINARY, ['--config', config, 'migrate-to-postgres', '--from', src.path, '--to', url], { encoding: 'utf8' });
    const ok = run();
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^calls +3$/m);
    expect(ok.stdout).toContain(`needs the secret.key at ${keyFileFor(src.path)}`);
    const again = run();
    expect(again.status).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toMatch(/already holds data/);
    // --json (docs/high-availability.md): the same in one object, built in src/outward.
    const json = spawnSync(BINARY, ['--config', config, 'migrate-to-postgres', '--from', src.path, '--to', testStoreUrl()!, '--json'], { encoding: 'utf8' });
    expect(json.status, json.stderr).toBe(0);
    const out = JSON.parse(json.stdout);
    expect(Object.keys(out)).toEqual(['from', 'tables', 'rows', 'seconds', 'secret_key']);
    expect(out).toMatchObject({ from: src.path, secret_key: keyFileFor(src.path) });
    expect(out.tables).toContainEqual({ table: 'calls', rows: 3 });
    expect(out.rows).toBe((out.tables as CopiedTable[]).reduce((n, t) => n + t.rows, 0));
    expect(out.seconds).toBeGreaterThanOrEqual(0);
  });
});
