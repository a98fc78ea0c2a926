// What one accepted webhook request costs in SQLite alone, without HTTP: the statements
// the intake runs (check-and-charge, alert row, call insert, history row, with no savepoint
// of the request's own: src/intake/enqueue.ts isPlain; `--savepoint` puts one back, as before; the
// lookup cache's change marker is read at most every 100 ms, sql/sqlite/database.ts) in
// group commits of BATCH requests with synchronous=FULL, as the server does, each step timed
// apart (SQLite answers synchronously: a step's wall time is its work, the
// COMMIT's includes its fsync). Bounds scripts/bench-ingest from below.
// Usage: `bun scripts/bench/ingest-statements.ts [--savepoint] [batch]`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStore } from '../../src/store';
import { createAlertsStore } from '../../src/store/alerts';
import { createCallsStore } from '../../src/store/calls';
import { createHistoryStore } from '../../src/store/history';
import { sqliteConnection } from '../../src/store/sql/connection';
import { openDatabase } from '../../src/store/sql/sqlite/database';
import { createUsageStore } from '../../src/store/usage';

const args = process.argv.slice(2);
const withSavepoint = args.includes('--savepoint');
const BATCH = Number(args.find((a) => a !== '--savepoint') ?? 44); // the mean batch measured under 64 connections
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
const store = { usage: createUsageStore(conn), alerts: createAlertsStore(conn), calls: createCallsStore(conn), history: createHistoryStore(conn) };
const savepoint = db.prepare('SAVEPOINT w');
const release = db.prepare('RELEASE w');
const message = 'Core switch sw-core-01 down: 10.0.0.1 unreachable';

// Each step's wall time summed over the run (µs per request at the end).
const spent = new Map<string, number>();
const timed = async <T>(step: string, f: () => T | Promise<T>): Promise<T> => {
  const t0 = performance.now();
  const v = await f();
  spent.set(step, (spent.get(step) ?? 0) + (performance.now() - t0));
  return v;
};
const wall0 = performance.now();
const cpu0 = process.cpuUsage();
for (let b = 0; b < REQUESTS / BATCH; b++) {
  await timed('BEGIN IMMEDIATE + COMMIT (fsync), its share', () => db.run('BEGIN IMMEDIATE'));
  for (let i = 0; i < BATCH; i++) {
    const now = Date.now();
    if (withSavepoint) await timed('SAVEPOINT + RELEASE', () => savepoint.run());
    await timed('credit charge (usage shard)', () => store.usage.tryCharge(account.id, '2026-11', 1, 1e9));
    const alertId = await timed('alert row', () =>
      store.alerts.create({ accountId: account.id, credentialId: cred.id, key: null, source: 'webhook', message, labels: null }, now),
    );
    await timed('call row', () =>
      store.calls.enqueue([{ accountId: account.id, credentialId: cred.id, source: 'webhook', phoneNumber: '5321234567', message, alertId }], now),
    );
    if (withSavepoint) await timed('SAVEPOINT + RELEASE', () => release.run());
    await timed('API history row', () =>
      store.history.record({
        at: now,
        requestId: crypto.randomUUID(),
        endpoint: '/webhook/receive',
        sourceIp: '127.0.0.1',
        status: 200,
        message: '1 call(s) queued',
        accountId: account.id,
        credentialId: cred.id,
      }),
    );
  }
  await timed('BEGIN IMMEDIATE + COMMIT (fsync), its share', () => db.run('COMMIT'));
}
const cpu = process.cpuUsage(cpu0);
const n = Math.floor(REQUESTS / BATCH) * BATCH;
const us = (x: number) => x.toFixed(1);
console.log(`| step (batch ${BATCH}${withSavepoint ? ', a savepoint per request' : ''}) | µs per request |\n|---|---|`);
for (const [step, ms] of spent) console.log(`| ${step} | ${us((ms * 1000) / n)} |`);
console.log(
  `| all of it: wall | ${us(((performance.now() - wall0) * 1000) / n)} |\n` +
    `| all of it: CPU (user + system) | ${us(cpu.user / n)} + ${us(cpu.system / n)} |`,
);
db.close();
rmSync(dir, { recursive: true, force: true });
