import { withEngine } from '../../test/helpers/engine';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isFinal } from '../call-model';
import { configSchema } from '../config/schema';
import { silentLogger } from '../log';
import { createTelephone, type Telephone } from '../sip';
import { createStore, type Store } from '../store';
import { freePort } from '../../test/helpers/ports';
import { startSipp, type SippPeer } from '../../test/helpers/sipp';
import { testAudioSource } from '../../test/helpers/test-audio';
import { metrics } from '../metrics';
import { createDialer } from './dialer';

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

async function rig(sipp: SippPeer, calls: Record<string, unknown> = {}) {
  const rtp = await freePort();
  const config = configSchema.parse({
    sip: { server: `127.0.0.1:${sipp.port}`, local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 40}`, t1_ms: 50 },
    // No per-number gap unless a test sets one: these tests are about retries and channels.
    calls: { answer_delay_ms: 50, ring_timeout_s: 5, retry_delays_s: [1, 1], max_attempts: 3, per_number_gap_s: 0, ...calls },
  });
  const store: Store = await createStore({ path: join(mkdtempSync(join(tmpdir(), 'va-dialer-')), 'db.sqlite'), busyTimeoutMs: 1000, clock: Date.now });
  const telephone: Telephone = createTelephone(config.sip, 50, { log: silentLogger() });
  const audio = testAudioSource(20);
  await telephone.start();
  const dialer = withEngine(createDialer({
    store,
    dial: (r) => telephone.dial(r),
    audio,
    clock: Date.now,
    log: silentLogger(),
    calls: config.calls,
    timeZone: 'Europe/Istanbul',
    leaseMs: 5000,
    pollMs: 100,
  }));
  cleanups.push(async () => {
    await dialer.stop();
    await telephone.stop();
    await store.close();
    await sipp.stop();
  });
  const account = await store.transaction((tx) => tx.accounts.create({ name: 't', plan: 'starter' }));
  const other = await store.transaction((tx) => tx.accounts.create({ name: 'u', plan: 'starter' }));
  const enqueue = async (phoneNumber = '5321234567', createdAt = Date.now(), accountId = account.id) =>
    (await store.transaction((tx) => tx.calls.enqueue([{ accountId, credentialId: null, source: 'test', phoneNumber, message: 'disk full' }], createdAt)))[0]!;
  // The peer is real: wait for the call to reach a final state, polling the store.
  const settled = async (id: string, timeoutMs = 15_000) => {
    await expect.poll(async () => isFinal((await store.calls.get(id))!.state), { timeout: timeoutMs, interval: 50 }).toBe(true);
    return (await store.calls.get(id))!;
  };
  return { store, dialer, enqueue, settled, other, audio };
}

/** A counter's value for the series with these labels (0 before its first increment). */
async function counted(counter: { get(): Promise<{ values: { labels: Record<string, unknown>; value: number }[] }> }, labels: Record<string, string>) {
  const { values } = await counter.get();
  return values.find((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x))?.value ?? 0;
}

const path = async (store: Store, id: string) => (await store.calls.events(id)).map((e) => `${e.from}>${e.to}${e.sipCode ? ` ${e.sipCode}` : ''}`);

describe('dialer against sipp', () => {
  it('queued → dialing → ringing → answered → completed, every edge recorded', async () => {
    const sipp = await startSipp({ scenario: 'answer.xml' });
    const { store, dialer, enqueue, settled } = await rig(sipp);
    const id = await enqueue();
    dialer.start();
    const call = await settled(id);
    expect(call).toMatchObject({ state: 'completed', attempts: 1, lastSipCode: 200 });
    expect(call.answeredAt).not.toBeNull();
    expect(call.finishedAt).not.toBeNull();
    expect(await path(store, id)).toEqual(['queued>dialing', 'dialing>ringing 180', 'ringing>answered 200', 'answered>completed 200']);
    expect(await sipp.exited).toBe(0);
  });

  it('busy (486) is retried after the configured delays until max_attempts', async () => {
    const sipp = await startSipp({ scenario: 'final.xml', calls: 3, fill: { code: 486, reason: 'Busy Here' } });
    const { store, dialer, enqueue, settled } = await rig(sipp);
    const attempts486 = await counted(metrics.callAttempts, { sip_code: '486' });
    const toBusy = await counted(metrics.callTransitions, { to: 'busy' });
    const toDialing = await counted(metrics.callTransitions, { to: 'dialing' });
    const id = await enqueue();
    dialer.start();
    const call = await settled(id);
    expect(call).toMatchObject({ state: 'busy', attempts: 3, lastSipCode: 486 });
    // /metrics: each attempt's final answer counted once, each edge by the state reached.
    expect((await counted(metrics.callAttempts, { sip_code: '486' })) - attempts486).toBe(3);
    expect((await counted(metrics.callTransitions, { to: 'dialing' })) - toDialing).toBe(3);
    expect((await counted(metrics.callTransitions, { to: 'busy' })) - toBusy).toBe(1);
    const claims = (await store.calls.events(id)).filter((e) => e.to === 'dialing');
    expect(claims).toHaveLength(3);
    // retry_delays_s = [1, 1]: each new attempt waits at least a second after the last one ended
    const requeued = (await store.calls.events(id)).filter((e) => e.to === 'queued');
    expect(requeued).toHaveLength(2);
    for (let i = 0; i < 2; i++) expect(claims[i + 1]!.at - requeued[i]!.at).toBeGreaterThanOrEqual(1000);
    expect(await sipp.exited).toBe(0);
  });

  it('404 is rejected at once, never retried', async () => {
    const sipp = await startSipp({ scenario: 'final.xml', fill: { code: 404, reason: 'Not Found' } });
    const { store, dialer, enqueue, settled } = await rig(sipp);
    const id = await enqueue();
    dialer.start();
    expect(await settled(id)).toMatchObject({ state: 'rejected', attempts: 1, lastSipCode: 404 });
    expect((await path(store, id)).at(-1)).toBe('ringing>rejected 404');
  });

  it('503 is retried, then failed', async () => {
    const sipp = await startSipp({ scenario: 'final.xml', calls: 2, fill: { code: 503, reason: 'Service Unavailable' } });
    const { dialer, enqueue, settled } = await rig(sipp, { max_attempts: 2, retry_delays_s: [0] });
    const id = await enqueue();
    dialer.start();
    expect(await settled(id)).toMatchObject({ state: 'failed', attempts: 2, lastSipCode: 503 });
  });

  it('ring timeout → CANCEL → no_answer', async () => {
    const sipp = await startSipp({ scenario: 'no-answer.xml' });
    const { store, dialer, enqueue, settled } = await rig(sipp, { ring_timeout_s: 5, max_attempts: 1 });
    const id = await enqueue();
    dialer.start();
    expect(await settled(id, 10_000)).toMatchObject({ state: 'no_answer', attempts: 1, lastSipCode: 487 });
    expect(await path(store, id)).toEqual(['queued>dialing', 'dialing>ringing 180', 'ringing>no_answer 487']);
  });

  it('keypad 1 → acknowledged, stored on the call', async () => {
    const sipp = await startSipp({ scenario: 'dtmf.xml', keys: { listen_ms: 200, digit: 1 } });
    const { dialer, enqueue, settled } = await rig(sipp);
    const id = await enqueue();
    dialer.start();
    const call = await settled(id);
    expect(call).toMatchObject({ state: 'acknowledged' });
    expect(call.acknowledgedAt).not.toBeNull();
  });

  it('keypad 3 → completed as passed on, and its escalation skips the rest of the wait', async () => {
    const sipp = await startSipp({ scenario: 'dtmf.xml', keys: { listen_ms: 200, digit: 3 } });
    const { store, dialer, settled } = await rig(sipp);
    const account = await store.transaction((tx) => tx.accounts.create({ name: 'p', plan: 'starter' }));
    const policy = await store.transaction((tx) =>
      tx.policies.create({ accountId: account.id, name: 'p', steps: [{ numbers: ['5321234567'], wait_s: 300 }, { numbers: ['5322222222'], wait_s: 300 }], rounds: 1 }, Date.now()),
    );
    const alertId = await store.transaction(async (tx) => {
      const id = await tx.alerts.create({ accountId: account.id, credentialId: null, key: null, source: 'api', message: 'disk full' }, Date.now());
      await tx.calls.enqueue([{ accountId: account.id, credentialId: null, source: 'api', phoneNumber: '5321234567', message: 'disk full', alertId: id, escalationOrdinal: 1 }], Date.now());
      await tx.escalations.start({ alertId: id, accountId: account.id, credentialId: null, policyId: policy.id, plan: { steps: policy.steps, rounds: 1 }, message: 'disk full', round: 1, step: 0, stepStartedAt: Date.now(), nextAt: Date.now() + 300_000 });
      return id;
    });
    dialer.start();
    const call = await settled((await store.calls.ofAlert(alertId))[0]!.id);
    expect(call).toMatchObject({ state: 'completed', lastReason: '200 passed to the next step by keypad 3' });
    expect(await store.escalations.get(alertId)).toMatchObject({ skipWait: true, state: 'running' });
    expect((await store.escalations.get(alertId))!.nextAt).toBeLessThanOrEqual(Date.now());
  });

  it('a call older than max_age_s expires instead of ringing', async () => {
    const sipp = await startSipp({ scenario: 'answer.xml' });
    const { store, dialer, enqueue, settled } = await rig(sipp, { max_age_s: 60 });
    const id = await enqueue('5321234567', Date.now() - 61_000);
    dialer.start();
    expect(await settled(id)).toMatchObject({ state: 'expired', attempts: 1 });
    expect(await path(store, id)).toEqual(['queued>dialing', 'dialing>expired']);
  });

  it('never calls one number twice at once, while other numbers proceed', async () => {
    const sipp = await startSipp({ scenario: 'answer.xml', calls: 3, keys: { ring_ms: 300 } });
    const { store, dialer, enqueue, settled, other } = await rig(sipp, { max_concurrent: 3 });
    // Two accounts: calls of one account to one number would be bundled into one call.
    const a1 = await enqueue('5321111111');
    const a2 = await enqueue('5321111111', Date.now(), other.id);
    const b = await enqueue('5322222222');
    dialer.start();
    const calls = [await settled(a1), await settled(a2), await settled(b)];
    expect(calls.map((c) => c.state)).toEqual(['completed', 'completed', 'completed']);
    const span = async (id: string) => {
      const ev = await store.calls.events(id);
      return [ev.find((e) => e.to === 'dialing')!.at, ev.at(-1)!.at] as const;
    };
    const [s1, e1] = await span(a1);
    const [s2, e2] = await span(a2);
    expect(s2 >= e1 || s1 >= e2).toBe(true);
    const [sb] = await span(b);
    expect(sb).toBeLessThan(Math.max(e1, e2) - 200); // b did not wait for the same-number pair
  });

  it('holds at most calls.max_concurrent calls at once', async () => {
    const sipp = await startSipp({ scenario: 'answer.xml', calls: 5, keys: { ring_ms: 300 } });
    const { store, dialer, enqueue, settled } = await rig(sipp, { max_concurrent: 2 });
    const ids: string[] = [];
    for (const n of ['5321000001', '5321000002', '5321000003', '5321000004', '5321000005']) ids.push(await enqueue(n));
    dialer.start();
    for (const id of ids) expect(await settled(id)).toMatchObject({ state: 'completed' });
    const spans = await Promise.all(
      ids.map(async (id) => {
        const ev = await store.calls.events(id);
        return [ev.find((e) => e.to === 'dialing')!.at, ev.at(-1)!.at] as const;
      }),
    );
    let peak = 0;
    for (const [start] of spans) peak = Math.max(peak, spans.filter(([s, e]) => s <= start && start < e).length);
    expect(peak).toBe(2);
  });

  it('20 alerts to one number within a second: one call at once, the next after calls.per_number_gap_s speaking the other 19', async () => {
    const sipp = await startSipp({ scenario: 'answer.xml', calls: 2 });
    const { store, dialer, enqueue, settled, audio } = await rig(sipp, { per_number_gap_s: 3 });
    const ids = [await enqueue()];
    dialer.start();
    await expect.poll(async () => (await store.calls.get(ids[0]!))!.state, { timeout: 2_000, interval: 5 }).not.toBe('queued');
    for (let i = 0; i < 19; i++) ids.push(await enqueue());
    for (const id of ids) expect(await settled(id, 20_000)).toMatchObject({ state: 'completed' });
    const dialAt = async (id: string) => (await store.calls.events(id)).find((e) => e.to === 'dialing')!.at;
    const carrier = (await store.calls.get(ids[1]!))!;
    expect(carrier.bundledInto).toBeNull();
    const rest = await Promise.all(ids.slice(2).map((id) => store.calls.get(id)));
    expect(rest.every((c) => c!.bundledInto === carrier.id)).toBe(true);
    expect((await dialAt(ids[1]!)) - (await dialAt(ids[0]!))).toBeGreaterThanOrEqual(3_000);
    // Two INVITEs in all (sipp took exactly 2 calls), the second spoke all 19 alerts: its
    // answered-to-BYE span covers 19 messages of 20 frames (20 ms each).
    expect(audio.rendered).toEqual(['disk full', Array(19).fill('disk full').join(' | ')]);
    const ev = await store.calls.events(carrier.id);
    const talked = ev.find((e) => e.to === 'completed')!.at - ev.find((e) => e.to === 'answered')!.at;
    expect(talked).toBeGreaterThanOrEqual(19 * 20 * 20);
    expect(await sipp.exited).toBe(0);
  });
});
