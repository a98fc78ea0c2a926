// What one accepted webhook request costs in SQLite alone, without HTTP: the statements
// the intake runs (lookup-cache check, savepoint, check-and-charge, call insert, history
// row) in group commits of BATCH requests with synchronous=FULL, as the server does.
// Bounds scripts/bench-ingest from below: usage `bun scripts/bench/ingest-statements.ts [batch]`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStore } from '../../src/store';

const BATCH = Number(process.argv[2] ?? 44); // the mean batch measured under 64 connections
const REQUESTS = 60_000;
const dir = mkdtempSync(join(tmpdir(), 'va-statements-'));
const store = createStore({ path: join(dir, 'voice-alert.db'), busyTimeoutMs: 5000, clock: Date.now });
const account = store.accounts.create({ name: 'bench', plan: 'enterprise', monthlyCredit: 1e9 });
const cred = store.credentials.create(account.id);
const dataVersion = store.db.query('PRAGMA data_version');
const totalChanges = store.db.query('SELECT total_changes()');
const savepoint = store.db.prepare('SAVEPOINT w');
const release = store.db.prepare('RELEASE w');
const message = 'Core switch sw-core-01 down: 10.0.0.1 unreachable';

const wall0 = performance.now();
const cpu0 = process.cpuUsage();
for (let b = 0; b < REQUESTS / BATCH; b++) {
  for (let i = 0; i < BATCH; i++) {
    dataVersion.values();
    totalChanges.values();
  }
  store.db.run('BEGIN IMMEDIATE');
  for (let i = 0; i < BATCH; i++) {
    savepoint.run();
    store.usage.tryCharge(account.id, '2026-11', 1, 1e9);
    store.calls.enqueue(
      [{ accountId: account.id, credentialId: cred.id, source: 'webhook', phoneNumber: '5321234567', message }],
      Date.now(),
    );
    release.run();
    store.history.record({
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
  store.db.run('COMMIT');
}
const cpu = process.cpuUsage(cpu0);
const n = Math.floor(REQUESTS / BATCH) * BATCH;
const us = (x: number) => x.toFixed(1);
console.log(
  `batch ${BATCH}: per request wall ${us(((performance.now() - wall0) * 1000) / n)} µs, ` +
    `CPU user ${us(cpu.user / n)} µs + system ${us(cpu.system / n)} µs`,
);
await store.close();
rmSync(dir, { recursive: true, force: true });
