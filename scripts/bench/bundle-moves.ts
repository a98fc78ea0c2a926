// How long the main thread is held while a call carrying a large bundle moves along, on
// the embedded SQLite store (BENCHMARKS "Alert storm": 3,331 plain alerts for one number
// claimed as one call). SQLite answers synchronously, so each transaction's wall time is
// the time the event loop could not answer HTTP. Steps: the claim, dialing → ringing →
// answered → completed (the alerts settle at the end), as run-claimed-call.ts drives them.
// Usage: `bun scripts/bench/bundle-moves.ts [bundled calls]`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCallMover } from '../../src/calls/call-mover';
import { CLAIMED_STATE } from '../../src/call-model';
import { silentLogger } from '../../src/log';
import { createStore } from '../../src/store';

const BUNDLED = Number(process.argv[2] ?? 3_331);
const dir = mkdtempSync(join(tmpdir(), 'va-bundle-'));
let t = Date.UTC(2026, 10, 27, 12);
const clock = () => t;
const store = await createStore({ path: join(dir, 'voice-alert.db'), busyTimeoutMs: 5000, clock });
const account = await store.transaction((tx) => tx.accounts.create({ name: 'bench', plan: 'enterprise', monthlyCredit: 1e9 }));
// One alert and one call each, all for one number, queued in batches like the intake's.
for (let i = 0; i < BUNDLED + 1; i += 500) {
  await store.transaction(async (tx) => {
    for (let j = i; j < Math.min(i + 500, BUNDLED + 1); j++) {
      const alertId = await tx.alerts.create({ accountId: account.id, credentialId: null, key: null, source: 'webhook', message: `alert ${j}`, labels: null }, t);
      await tx.calls.enqueue([{ accountId: account.id, credentialId: null, source: 'webhook', phoneNumber: '5329999999', message: `alert ${j}`, alertId, escalationOrdinal: 0, lastReason: null }], t);
    }
  });
}
t += 1000;

const timed = async <T>(step: string, f: () => Promise<T>): Promise<T> => {
  const t0 = performance.now();
  const v = await f();
  console.log(`${step.padEnd(28)} ${(performance.now() - t0).toFixed(1).padStart(8)} ms`);
  return v;
};
console.log(`a call carrying ${BUNDLED} bundled calls (SQLite, one transaction each step):`);
const call = await timed('claim', () => store.transaction((tx) => tx.calls.claim(clock(), 60_000)));
if (!call || call.bundled.length !== BUNDLED) throw new Error(`claimed ${call?.bundled.length ?? 'nothing'}, expected ${BUNDLED} bundled`);
const mover = createCallMover({ store, clock, log: silentLogger(), timeZone: 'UTC' }, call, CLAIMED_STATE, call.bundled);
await timed('renew the leases', () => store.transaction((tx) => tx.calls.renewLeases([call.id, ...call.bundled.map((b) => b.id)], 60_000, clock())));
for (const to of ['ringing', 'answered', 'completed'] as const) {
  t += 1000;
  if (!(await timed(`${mover.state()} → ${to}`, () => mover.move(to)))) throw new Error(`the move to ${to} did not happen`);
}
const settled = await store.alerts.list({ accountId: account.id, state: 'unacknowledged', limit: BUNDLED + 10 });
if (settled.length !== BUNDLED + 1) throw new Error(`${settled.length} alerts settled, expected ${BUNDLED + 1}`);
await store.close();
rmSync(dir, { recursive: true, force: true });
