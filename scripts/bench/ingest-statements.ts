// What one accepted webhook request costs in SQLite alone, without HTTP: the statements
// the intake runs (lookup-cache check, savepoint, check-and-charge, call insert, history
// row) in group commits of BATCH requests with synchronous=FULL, as the server does.
// Bounds scripts/bench-ingest from below: usage `bun scripts/bench/ingest-statements.ts [batch]`.
import { Database } from 'bun:sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStore } from '../../src/store';
import { createCallsStore } from '../../src/store/calls';
import { createHistoryStore } from '../../src/store/history';
import { sqliteConnection } from '../../src/store/sql/connection';
import { openDatabase } from '../../src/store/sql/sqlite/database';
import { createUsageStore } from '../../src/store/usage';

const BATCH = Number(process.argv[2] ?? 44); // the mean batch measured under 64 connections
const REQUESTS = 60_000;
const dir = mkdtempSync(join(tmpdir(), 'va-statements-'));
const path = join(dir, 'voice-alert.db');
// The account and credential through the store; then the store's own statements on a bare
// connection, since the Store keeps its connection to itself and this drives transactions by hand.
const setup = await createStore({ path, busyTimeoutMs: 5000, clock: Date.now });
const { account, cred } = await setup.transaction(async (tx) => {
  const account = await tx.accounts.create({ name: 'bench', plan: 'enterprise', monthlyCredit: 1e9 });
  return { account, cred: await tx.credentials.create(account.id) };
});
await setup.close();
const db = openDatabase({ path, busyTimeoutMs: 5000 });
const conn = sqliteConnection(db);
const store = { usage: createUsageStore(conn), calls: createCallsStore(conn), history: createHistoryStore(conn) };
// The change marker as the store reads it (sql/sqlite/database.ts): data_version on the reading connection.
const reader = new Database(path, { strict: true, readonly: true });
const dataVersion = reader.query('PRAGMA data_version');
const changeMarker = () => Promise.resolve(dataVersion.values()[0]![0] as number);
const savepoint = db.prepare('SAVEPOINT w');
const release = db.prepare('RELEASE w');
const message = 'Core switch sw-core-01 down: 10.0.0.1 unreachable';

const wall0 = performance.now();
const cpu0 = process.cpuUsage();
for (let b = 0; b < REQUESTS / BATCH; b++) {
  for (let i = 0; i < BATCH; i++) await changeMarker(); // the lookup cache's check, once per request
  db.run('BEGIN IMMEDIATE');
  for (let i = 0; i < BATCH; i++) {
    savepoint.run();
    await store.usage.tryCharge(account.id, '2026-11', 1, 1e9);
    await store.calls.enqueue(
      [{ accountId: account.id, credentialId: cred.id, source: 'webhook', phoneNumber: '5321234567', message }],
      Date.now(),
    );
    release.run();
    await store.history.record({
      at: Date.now(),
      requestId: crypto.randomUUID(),
      endpoint: '/webhook/receive',
      sourceIp: '127.0.0.1',
      status: 200,
      message: '1 call(s) queued',
      accountId: account.id,
      credentialId: cred.id,
    });
  }
  db.run('COMMIT');
}
const cpu = process.cpuUsage(cpu0);
const n = Math.floor(REQUESTS / BATCH) * BATCH;
const us = (x: number) => x.toFixed(1);
console.log(
  `batch ${BATCH}: per request wall ${us(((performance.now() - wall0) * 1000) / n)} µs, ` +
    `CPU user ${us(cpu.user / n)} µs + system ${us(cpu.system / n)} µs`,
);
reader.close();
db.close();
rmSync(dir, { recursive: true, force: true });
