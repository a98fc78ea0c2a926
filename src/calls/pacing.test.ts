import { withEngine } from '../../test/helpers/engine';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CallOutcome } from '../call-model';
import { configSchema } from '../config/schema';
import { silentLogger } from '../log';
import type { DialRequest } from '../sip';
import { createStore, type Store } from '../store';
import { httpTestApp } from '../../test/helpers/http-app';
import { testAudioSource } from '../../test/helpers/test-audio';
import { createDialer } from './dialer';

// Per-number pacing and bundling over a stand-in trunk, on fake timers: a 60 s gap costs no
// wall clock. setImmediate stays real (the store's group commit uses it).
beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] }));
let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

const commits = () => new Promise<void>((r) => setImmediate(r));
async function advanceUntil(done: () => boolean | Promise<boolean>, limitMs: number, stepMs = 250): Promise<void> {
  for (let spent = 0; spent <= limitMs; spent += stepMs) {
    await commits();
    if (await done()) return;
    await vi.advanceTimersByTimeAsync(stepMs);
  }
  throw new Error(`not done within ${limitMs} ms of fake time`);
}

interface Dialled {
  at: number;
  number: string;
  request: DialRequest;
}

/**
 * A dialer whose trunk rings each number `ringMs[number]` (0 by default; a CANCEL ends the
 * ringing), answers, plays for `talkMs`, and reports keypad 1 from `ackFrom`, else played.
 */
async function rig(calls: Record<string, unknown>, o: { talkMs?: number; ackFrom?: string; ringMs?: Record<string, number> } = {}) {
  const store: Store = await createStore({ path: join(mkdtempSync(join(tmpdir(), 'va-pacing-')), 'db.sqlite'), busyTimeoutMs: 1000, clock: Date.now });
  const dialled: Dialled[] = [];
  const audio = testAudioSource(5);
  const dialer = withEngine(createDialer({
    store,
    audio,
    clock: Date.now,
    log: silentLogger(),
    timeZone: 'Europe/Istanbul',
    calls: configSchema.parse({ calls: { retry_delays_s: [0], ...calls } }).calls,
    leaseMs: 30_000,
    pollMs: 250,
    async dial(request) {
      dialled.push({ at: Date.now(), number: request.number, request });
      const cancelled = await new Promise<boolean>((resolve) => {
        const t = setTimeout(() => resolve(false), o.ringMs?.[request.number] ?? 0);
        request.signal?.addEventListener('abort', () => (clearTimeout(t), resolve(true)), { once: true });
      });
      if (cancelled) return { code: 'ABORTED', status: null, reason: 'cancelled before the answer' } satisfies CallOutcome;
      request.progress.answered('PCMU', { answeredBy: 'unknown', amdReason: null });
      await request.audio();
      await new Promise((r) => setTimeout(r, o.talkMs ?? 5_000));
      return o.ackFrom === request.number
        ? { code: 'ACKNOWLEDGED', status: 200, reason: 'acknowledged by keypad 1' }
        : { code: 'COMPLETED', status: 200, reason: 'message played', remoteHangup: false };
    },
  }));
  cleanups.push(async () => {
    await dialer.stop();
    await store.close();
  });
  const account = await store.transaction((tx) => tx.accounts.create({ name: 'a', plan: 'enterprise' }));
  /** An alert with one call, as the intake makes it. */
  const alert = (phoneNumber: string, message: string, accountId = account.id) =>
    store.transaction(async (tx) => {
      const alertId = await tx.alerts.create({ accountId, credentialId: null, key: null, source: 'api', message }, Date.now());
      const [callId] = await tx.calls.enqueue([{ accountId, credentialId: null, source: 'api', phoneNumber, message, alertId }], Date.now());
      return { alertId, callId: callId! };
    });
  const finished = async () => (await store.calls.list({ limit: 1000 })).every((c) => c.finishedAt !== null);
  return { store, dialer, dialled, audio, alert, account, finished };
}

describe('per-number pacing and bundling', () => {
  it('calls a number at once, then not again before calls.per_number_gap_s; the alerts waiting meanwhile are spoken in one call, each named', async () => {
    const { store, dialer, dialled, audio, alert, finished } = await rig({ per_number_gap_s: 60 });
    const first = await alert('5321234567', 'disk full on db1');
    dialer.start();
    await advanceUntil(() => dialled.length === 1, 1_000);
    const t0 = dialled[0]!.at;
    const rest = [];
    for (let i = 2; i <= 20; i++) rest.push(await alert('5321234567', `alert ${i}`));
    await advanceUntil(finished, 120_000);
    // 20 alerts: two calls, the second not before the gap.
    expect(dialled).toHaveLength(2);
    expect(dialled[1]!.at - t0).toBeGreaterThanOrEqual(60_000);
    expect(dialled[1]!.at - t0).toBeLessThan(61_000);
    // The second call spoke all 19 waiting alerts, in the order they came.
    expect(audio.rendered).toEqual(['disk full on db1', rest.map((_, i) => `alert ${i + 2}`).join(' | ')]);
    const carrier = (await store.calls.get(rest[0]!.callId))!;
    expect(carrier).toMatchObject({ state: 'completed', bundledInto: null });
    for (const r of rest.slice(1)) {
      expect(await store.calls.get(r.callId)).toMatchObject({ state: 'completed', bundledInto: carrier.id, attempts: 1 });
      expect((await store.calls.events(r.callId)).map((e) => `${e.from}>${e.to}`)).toEqual(['queued>dialing', 'dialing>answered', 'answered>completed']);
    }
    // Nobody pressed 1: every alert ends unacknowledged with its calls.
    expect((await store.alerts.get(first.alertId))!.state).toBe('unacknowledged');
    const restAlerts = await Promise.all(rest.map((r) => store.alerts.get(r.alertId)));
    expect(restAlerts.every((a) => a!.state === 'unacknowledged')).toBe(true);
  });

  it('paces two numbers independently', async () => {
    const { dialer, dialled, alert, finished } = await rig({ per_number_gap_s: 60 });
    await alert('5321111111', 'a1');
    await alert('5322222222', 'b1');
    dialer.start();
    await advanceUntil(() => dialled.length === 2, 1_000);
    await alert('5321111111', 'a2');
    await alert('5322222222', 'b2');
    await advanceUntil(finished, 120_000);
    const at = (n: string) => dialled.filter((d) => d.number === n).map((d) => d.at);
    for (const n of ['5321111111', '5322222222']) {
      const [a, b] = at(n);
      expect(at(n)).toHaveLength(2);
      expect(b! - a!).toBeGreaterThanOrEqual(60_000);
    }
    // Neither waited for the other: both first calls left together.
    expect(Math.abs(at('5321111111')[0]! - at('5322222222')[0]!)).toBeLessThan(1_000);
  });

  it('calls a number at most calls.per_number_per_hour times an hour', async () => {
    const { dialer, dialled, alert, finished } = await rig({ per_number_gap_s: 0, per_number_per_hour: 2 }, { talkMs: 1_000 });
    dialer.start();
    await alert('5321234567', 'one');
    await advanceUntil(() => dialled.length === 1, 5_000);
    await advanceUntil(finished, 5_000);
    await alert('5321234567', 'two');
    await advanceUntil(() => dialled.length === 2, 5_000);
    await advanceUntil(finished, 5_000);
    await alert('5321234567', 'three');
    await alert('5321234567', 'four');
    await advanceUntil(finished, 3_700_000, 5_000);
    expect(dialled).toHaveLength(3);
    expect(dialled[2]!.at - dialled[0]!.at).toBeGreaterThanOrEqual(3_600_000);
    expect(dialled[2]!.request.number).toBe('5321234567');
  });

  it('PagerDuty and Opsgenie alerts share the webhook\'s pacing: to one number, the second and third wait out the gap and are spoken in one call', async () => {
    const { store, dialer, dialled, audio, account, finished } = await rig({ per_number_gap_s: 60 });
    const { webhookKey } = await store.transaction((tx) => tx.credentials.create(account.id));
    const app = httpTestApp(store, Date.now);
    const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
      const r = await app.handle(new Request(`http://localhost${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }));
      expect(r.status).toBe(path.startsWith('/webhook') ? 200 : 202);
    };
    const to = '?to=5321234567';
    await post(`/webhook/receive${to}&key=${webhookKey}`, { error_message: 'disk full on db1' });
    dialer.start();
    await advanceUntil(() => dialled.length === 1, 1_000);
    const t0 = dialled[0]!.at;
    // docs/integrations.md "PagerDuty and Opsgenie compatible intake": the same alert path, pacing
    // included.
    await post(`/v2/enqueue${to}`, { routing_key: webhookKey, event_action: 'trigger', payload: { summary: 'api latency high', source: 'web1', severity: 'critical' } });
    await post(`/v2/alerts${to}`, { message: 'queue backed up', alias: 'mq-1' }, { authorization: `GenieKey ${webhookKey}` });
    await advanceUntil(finished, 120_000);
    expect(dialled.map((d) => d.number)).toEqual(['5321234567', '5321234567']);
    expect(dialled[1]!.at - t0).toBeGreaterThanOrEqual(60_000);
    expect(audio.rendered).toEqual(['disk full on db1', 'api latency high. web1. critical. | queue backed up.']);
  });

  it('keypad 1 in a bundled call acknowledges every alert it spoke; their calls still ringing elsewhere are cancelled', async () => {
    const { store, dialer, dialled, alert, account, finished } = await rig({ per_number_gap_s: 60 }, { ackFrom: '5321234567', ringMs: { '5329999999': 120_000 } });
    dialer.start();
    const first = await alert('5321234567', 'first');
    await advanceUntil(() => dialled.length === 1, 1_000);
    const a = await alert('5321234567', 'second');
    const b = await alert('5321234567', 'third');
    // `b` also calls a second number, which rings (nobody there) while 5321234567 is paced.
    const bOther = await store.transaction(
      async (tx) => (await tx.calls.enqueue([{ accountId: account.id, credentialId: null, source: 'api', phoneNumber: '5329999999', message: 'third', alertId: b.alertId }], Date.now()))[0]!,
    );
    await advanceUntil(finished, 120_000);
    expect(await store.alerts.get(first.alertId)).toMatchObject({ state: 'acknowledged', acknowledgedBy: '5321234567' });
    for (const x of [a, b]) expect(await store.alerts.get(x.alertId)).toMatchObject({ state: 'acknowledged', acknowledgedBy: '5321234567' });
    expect((await store.calls.get(a.callId))!.state).toBe('acknowledged');
    expect(await store.calls.get(b.callId)).toMatchObject({ state: 'acknowledged', bundledInto: a.callId });
    // Dialled, still ringing when the bundle was acknowledged: CANCEL, then `cancelled`.
    expect(dialled.map((d) => d.number)).toEqual(['5321234567', '5329999999', '5321234567']);
    expect(await store.calls.get(bOther)).toMatchObject({ state: 'cancelled', answeredAt: null });
  });
});
