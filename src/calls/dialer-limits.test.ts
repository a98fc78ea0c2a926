import { withEngine } from '../../test/helpers/engine';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IllegalTransitionError, type CallOutcome } from '../call-model';
import { configSchema } from '../config/schema';
import { silentLogger } from '../log';
import type { DialRequest } from '../sip';
import { createStore, type Store } from '../store';
import { testAudioSource } from '../../test/helpers/test-audio';
import { createDialer, type DialerDeps } from './dialer';

// Deadlines (the attempt limit, the shutdown grace, polling) run on fake timers, so these
// tests wait for no wall clock. setImmediate stays real: the store's group commit uses it.
beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] }));
let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
  vi.useRealTimers();
});

const commits = () => new Promise<void>((r) => setImmediate(r));

/** Moves fake time in small steps, letting commits land, until `done()` or `limitMs` passed. */
async function advanceUntil(done: () => boolean | Promise<boolean>, limitMs = 10_000, stepMs = 10): Promise<number> {
  for (let spent = 0; spent <= limitMs; spent += stepMs) {
    await commits();
    if (await done()) return spent;
    await vi.advanceTimersByTimeAsync(stepMs);
  }
  throw new Error(`not done within ${limitMs} ms of fake time`);
}

/** A dialer over a stand-in trunk (`dial`), with one call queued for 5321234567. */
async function rig(dial: (r: DialRequest) => Promise<CallOutcome>, o: { calls?: Record<string, unknown> } & Partial<Omit<DialerDeps, 'calls'>> = {}) {
  const { calls, ...deps } = o;
  const store: Store = await createStore({ path: join(mkdtempSync(join(tmpdir(), 'va-limits-')), 'db.sqlite'), busyTimeoutMs: 1000, clock: Date.now });
  const dialer = withEngine(createDialer({
    store,
    dial,
    audio: testAudioSource(5),
    clock: Date.now,
    log: silentLogger(),
    calls: configSchema.parse({ calls: { per_number_gap_s: 0, ...calls } }).calls,
    timeZone: 'Europe/Istanbul',
    leaseMs: 5000,
    pollMs: 50,
    ...deps,
  }));
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await dialer.stop();
  };
  cleanups.push(async () => {
    vi.useRealTimers();
    await stop();
    await store.close();
  });
  const account = await store.transaction((tx) => tx.accounts.create({ name: 't', plan: 'starter' }));
  const [id] = await store.transaction((tx) =>
    tx.calls.enqueue([{ accountId: account.id, credentialId: null, source: 'test', phoneNumber: '5321234567', message: 'disk full' }], Date.now()),
  );
  dialer.start();
  const state = async () => (await store.calls.get(id!))!.state;
  return { store, dialer, stop, id: id!, state };
}

describe('dialer limits: stuck attempts and the shutdown grace', () => {
  it('gives up an attempt that never settles: the channel is freed and the call retried, then failed', async () => {
    const dials: DialRequest[] = [];
    // A trunk that swallows the call: the promise never settles.
    const { store, dialer, id, state } = await rig(
      (r) => {
        dials.push(r);
        return new Promise(() => undefined);
      },
      { calls: { retry_delays_s: [0], max_attempts: 2, max_concurrent: 1 }, attemptLimitMs: 300 },
    );
    const spent = await advanceUntil(async () => (await state()) === 'failed');
    // Two attempts, each given up at the limit, not before.
    expect(spent).toBeGreaterThanOrEqual(600);
    expect(dials).toHaveLength(2);
    expect(dialer.active()).toBe(0);
    const reasons = (await store.calls.events(id)).map((e) => e.reason ?? '');
    expect(reasons.filter((r) => r.includes('attempt did not finish within'))).toHaveLength(2);
    // The limit handed to the trunk for the answered part is calls.max_call_s.
    expect(dials[0]!.maxCallMs).toBe(300_000);
  });

  it('on stop, an answered call is told to hang up once the shutdown grace ran out, not before', async () => {
    let hungUpAt: number | null = null;
    // Answers at once and talks until told to hang up, as a long message would.
    const { dialer, state } = await rig(
      async (r) => {
        r.progress.answered('PCMU', { answeredBy: 'unknown', amdReason: null });
        await new Promise<void>((resolve) => r.hangUpSignal!.addEventListener('abort', () => resolve()));
        hungUpAt = Date.now();
        return { code: 'COMPLETED', status: 200, reason: 'hung up: the appliance is stopping', remoteHangup: false };
      },
      { shutdownGraceMs: 300 },
    );
    await advanceUntil(async () => (await state()) === 'answered');
    const stoppingAt = Date.now();
    let stopped = false;
    const stopping = dialer.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(299);
    expect(hungUpAt).toBeNull();
    expect(stopped).toBe(false);
    await advanceUntil(() => stopped, 1000);
    await stopping;
    expect(hungUpAt! - stoppingAt).toBe(300);
    expect(await state()).toBe('completed');
  });
});

describe('dialer: an illegal transition is a bug and fails the call loudly', () => {
  it('a progress report that would move the call backwards ends it failed, never retried', async () => {
    let dials = 0;
    // A trunk that reports ringing after the answer: answered -> ringing is not drawn.
    const { store, state, id } = await rig(
      async (r) => {
        dials++;
        r.progress.answered('PCMU', { answeredBy: 'unknown', amdReason: null });
        r.progress.ringing(180, 'Ringing');
        return { code: 'COMPLETED', status: 200, reason: 'message played', remoteHangup: false };
      },
      { calls: { retry_delays_s: [0], max_attempts: 3 } },
    );
    await advanceUntil(async () => (await state()) === 'failed');
    expect(dials).toBe(1);
    const call = (await store.calls.get(id))!;
    expect(call.lastReason).toBe('internal error: illegal call transition answered -> ringing');
    expect((await store.calls.events(id)).map((e) => `${e.from}>${e.to}`)).toEqual(['queued>dialing', 'dialing>answered', 'answered>failed']);
  });

  it("an illegal edge in the attempt's own machine (a rejected dial) ends the call failed, never retried", async () => {
    let dials = 0;
    const { store, state, id } = await rig(
      async (r) => {
        dials++;
        r.progress.ringing(180, 'Ringing');
        throw new IllegalTransitionError('attempt', 'ended', 'playing');
      },
      { calls: { retry_delays_s: [0], max_attempts: 3 } },
    );
    await advanceUntil(async () => (await state()) === 'failed');
    expect(dials).toBe(1);
    expect((await store.calls.get(id))!.lastReason).toBe('internal error: illegal attempt transition ended -> playing');
    expect((await store.calls.events(id)).map((e) => `${e.from}>${e.to}`)).toEqual(['queued>dialing', 'dialing>ringing', 'ringing>failed']);
  });

  it('an ordinary dial failure is still retried (the bug path is only for illegal edges)', async () => {
    let dials = 0;
    const { state } = await rig(
      async () => {
        dials++;
        throw new Error('socket closed');
      },
      { calls: { retry_delays_s: [0], max_attempts: 2 } },
    );
    await advanceUntil(async () => (await state()) === 'failed');
    expect(dials).toBe(2);
  });
});
