import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configSchema } from '../config/schema';
import { silentLogger } from '../log';
import type { CallOutcome } from '../call-model';
import type { DialRequest } from '../sip';
import { createStore, type Store } from '../store';
import { testAudioSource } from '../../test/helpers/test-audio';
import { createDialer, type Dialer, type DialerDeps } from './dialer';

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

/** A dialer over a stand-in trunk (`dial`), with one call queued for 5321234567. */
function rig(dial: (r: DialRequest) => Promise<CallOutcome>, o: { calls?: Record<string, unknown> } & Partial<Omit<DialerDeps, 'calls'>> = {}) {
  const { calls, ...deps } = o;
  const store: Store = createStore({ path: join(mkdtempSync(join(tmpdir(), 'va-limits-')), 'db.sqlite'), busyTimeoutMs: 1000, clock: Date.now });
  const dialer: Dialer = createDialer({
    store,
    dial,
    audio: testAudioSource(5),
    clock: Date.now,
    log: silentLogger(),
    calls: configSchema.parse({ calls }).calls,
    leaseMs: 5000,
    pollMs: 50,
    ...deps,
  });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await dialer.stop();
  };
  cleanups.push(async () => {
    await stop();
    await store.close();
  });
  const account = store.accounts.create({ name: 't', plan: 'starter' });
  const [id] = store.calls.enqueue([{ accountId: account.id, credentialId: null, source: 'test', phoneNumber: '5321234567', message: 'disk full' }], Date.now());
  dialer.start();
  return { store, dialer, stop, id: id!, state: () => store.calls.get(id!)!.state };
}

describe('dialer limits: stuck attempts and the shutdown grace', () => {
  it('gives up an attempt that never settles: the channel is freed and the call retried, then failed', async () => {
    const dials: DialRequest[] = [];
    // A trunk that swallows the call: the promise never settles.
    const { store, dialer, id, state } = rig(
      (r) => {
        dials.push(r);
        return new Promise(() => undefined);
      },
      { calls: { retry_delays_s: [0], max_attempts: 2, max_concurrent: 1 }, attemptLimitMs: 300 },
    );
    await expect.poll(state, { timeout: 5000 }).toBe('failed');
    expect(dials).toHaveLength(2);
    expect(dialer.active()).toBe(0);
    const reasons = store.calls.events(id).map((e) => e.reason ?? '');
    expect(reasons.filter((r) => r.includes('attempt did not finish within'))).toHaveLength(2);
    // The limit handed to the trunk for the answered part is calls.max_call_s.
    expect(dials[0]!.maxCallMs).toBe(300_000);
  });

  it('on stop, an answered call is told to hang up once the shutdown grace ran out', async () => {
    let hungUpAfter: number | null = null;
    // Answers at once and talks until told to hang up, as a long message would.
    const { stop, state } = rig(
      async (r) => {
        r.progress.answered('PCMU');
        const from = Date.now();
        await new Promise<void>((resolve) => r.hangUpSignal!.addEventListener('abort', () => resolve()));
        hungUpAfter = Date.now() - from;
        return { code: 'COMPLETED', status: 200, reason: 'hung up: the appliance is stopping', remoteHangup: false };
      },
      { shutdownGraceMs: 300 },
    );
    await expect.poll(state, { timeout: 5000 }).toBe('answered');
    const stopping = Date.now();
    await stop();
    expect(Date.now() - stopping).toBeGreaterThanOrEqual(290);
    expect(Date.now() - stopping).toBeLessThan(3000);
    expect(hungUpAfter).not.toBeNull();
    expect(state()).toBe('completed');
  });
});
