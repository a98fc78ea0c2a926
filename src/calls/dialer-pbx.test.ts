/**
 * Issue 11 item 7: how PBX answers end up stored (retry policy + dialer + real sipp peer).
 */
import { withEngine } from '../../test/helpers/engine';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isFinal } from '../call-model';
import { configSchema } from '../config/schema';
import { silentLogger } from '../log';
import { createTelephone } from '../sip';
import { createStore } from '../store';
import { freePort } from '../../test/helpers/ports';
import { startSipp, type SippPeer } from '../../test/helpers/sipp';
import { testAudioSource } from '../../test/helpers/test-audio';
import { createDialer } from './dialer';

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

async function rig(sipp: SippPeer) {
  const rtp = await freePort();
  const config = configSchema.parse({
    sip: { server: `127.0.0.1:${sipp.port}`, local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 40}`, t1_ms: 50 },
    calls: { answer_delay_ms: 50, ring_timeout_s: 5, retry_delays_s: [1, 1], max_attempts: 3, per_number_gap_s: 0 },
  });
  const store = await createStore({ path: join(mkdtempSync(join(tmpdir(), 'va-pbx-')), 'db.sqlite'), busyTimeoutMs: 1000, clock: Date.now });
  const telephone = createTelephone(config.sip, 50, { log: silentLogger() });
  await telephone.start();
  const dialer = withEngine(createDialer({
    store,
    dial: (r) => telephone.dial(r),
    audio: testAudioSource(20),
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
  const [id] = await store.transaction((tx) =>
    tx.calls.enqueue([{ accountId: account.id, credentialId: null, source: 'test', phoneNumber: '5321234567', message: 'disk full' }], Date.now()),
  );
  dialer.start();
  const path = async () => (await store.calls.events(id!)).map((e) => `${e.from}>${e.to}${e.sipCode ? ` ${e.sipCode}` : ''}`);
  return { store, id: id!, path };
}

describe('PBX answers as stored', () => {
  it('503 with Retry-After: 300 waits 300 s, not our 1 s retry delay', async () => {
    const sipp = await startSipp({ scenario: 'unavailable-retry-after.xml' });
    const { store, id, path } = await rig(sipp);
    const t0 = Date.now();
    await expect.poll(async () => (await store.calls.get(id))!.attempts, { timeout: 5000 }).toBe(1);
    await expect.poll(async () => (await store.calls.get(id))!.state, { timeout: 5000 }).toBe('queued');
    const call = (await store.calls.get(id))!;
    expect(call).toMatchObject({ lastSipCode: 503, lastReason: 'failed: 503 Service Unavailable; retry in 300 s' });
    expect(call.runAfter - t0).toBeGreaterThanOrEqual(300_000);
    expect(call.runAfter - Date.now()).toBeLessThanOrEqual(300_000);
    expect(await path()).toEqual(['queued>dialing', 'dialing>queued 503']);
    expect(await sipp.exited).toBe(0);
  });

  it('488 Not Acceptable Here is final at once: the same offer is never sent again', async () => {
    const sipp = await startSipp({ scenario: 'final.xml', fill: { code: 488, reason: 'Not Acceptable Here' } });
    const { store, id } = await rig(sipp);
    await expect.poll(async () => isFinal((await store.calls.get(id))!.state), { timeout: 5000 }).toBe(true);
    expect(await store.calls.get(id)).toMatchObject({ state: 'failed', attempts: 1, lastSipCode: 488, lastReason: '488 Not Acceptable Here' });
    expect(await sipp.exited).toBe(0);
  });

  it.each([
    [181, 'Call Is Being Forwarded'],
    [182, 'Queued'],
  ])('%i %s is stored as ringing with its code', async (code, reason) => {
    const sipp = await startSipp({ scenario: 'progress-18x.xml', fill: { progress: code, progress_reason: reason } });
    const { store, id, path } = await rig(sipp);
    await expect.poll(async () => isFinal((await store.calls.get(id))!.state), { timeout: 8000 }).toBe(true);
    expect((await store.calls.get(id))!.state).toBe('completed');
    expect(await path()).toEqual(['queued>dialing', `dialing>ringing ${code}`, 'ringing>answered 200', 'answered>completed 200']);
    expect(await sipp.exited).toBe(0);
  });
});
