import { withEngine } from '../../test/helpers/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { configSchema } from '../config';
import { silentLogger } from '../log';
import type { Store } from '../store';
import { freePort } from '../../test/helpers/ports';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { startSipp } from '../../test/helpers/sipp';
import { testAudioSource } from '../../test/helpers/test-audio';
import { createWaitingMarker, NO_TRUNK_REASON, sweepWithoutTrunk } from './expire-stale';
import { createTelephony } from '.';

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

const MAX_AGE_S = 60;

async function seed(store: Store, now: number, phoneNumber = '5321234567') {
  return store.transaction(async (tx) => {
    const account = await tx.accounts.create({ name: 't', plan: 'starter' });
    const alertId = await tx.alerts.create({ accountId: account.id, credentialId: null, key: null, source: 'api', message: 'disk full' }, now);
    const [callId] = await tx.calls.enqueue([{ accountId: account.id, credentialId: null, source: 'api', phoneNumber, message: 'disk full', alertId }], now);
    return { account, alertId, callId: callId! };
  });
}

describe('no trunk: queued calls expire after calls.max_age_s (issue 10 item 7)', () => {
  it('a call older than max_age_s ends expired with the reason, its alert settles; a younger one waits and says why', async () => {
    const clock = manualClock();
    const store = await tempStore(clock);
    cleanups.push(() => store.close());
    const deps = { store, clock, log: silentLogger(), maxAgeS: MAX_AGE_S, timeZone: 'Europe/Istanbul' };
    const old = await seed(store, clock());
    clock.advance(30_000);
    const young = await seed(store, clock(), '5329876543');

    const mark = createWaitingMarker(store);
    expect(await sweepWithoutTrunk(deps)).toEqual([]); // old is 30 s old: nothing yet
    await mark();
    expect(await store.calls.get(old.callId)).toMatchObject({ state: 'queued', lastReason: NO_TRUNK_REASON });
    expect(await store.calls.get(young.callId)).toMatchObject({ state: 'queued', lastReason: NO_TRUNK_REASON });

    clock.advance(31_000); // old: 61 s, young: 31 s
    expect(await sweepWithoutTrunk(deps)).toEqual([old.callId]);
    const expired = (await store.calls.get(old.callId))!;
    expect(expired).toMatchObject({ state: 'expired', lastReason: `not placed within calls.max_age_s (60 s): ${NO_TRUNK_REASON}` });
    expect(expired.finishedAt).toBe(clock());
    expect((await store.calls.events(old.callId)).map((e) => `${e.from}>${e.to}`)).toEqual(['queued>expired']);
    expect((await store.alerts.get(old.alertId))!.state).toBe('unacknowledged');
    expect((await store.alerts.get(young.alertId))!.state).toBe('open');
  });

  it('a backlog larger than one batch expires in one sweep, each batch its own transaction', async () => {
    const clock = manualClock();
    const store = await tempStore(clock);
    cleanups.push(() => store.close());
    const { account, alertId } = await seed(store, clock());
    const more = Array.from({ length: 1200 }, (_, i) => ({ accountId: account.id, credentialId: null, source: 'api' as const, phoneNumber: `53200${String(i).padStart(5, '0')}`, message: 'm', alertId }));
    await store.transaction((tx) => tx.calls.enqueue(more, clock()));
    clock.advance(MAX_AGE_S * 1000 + 1);
    const before = store.stats().batches;
    expect(await sweepWithoutTrunk({ store, clock, log: silentLogger(), maxAgeS: MAX_AGE_S, timeZone: 'Europe/Istanbul' })).toHaveLength(1201);
    expect(store.stats().batches - before).toBe(3); // 500 + 500 + 201
    expect((await store.calls.ofAlert(alertId)).every((c) => c.state === 'expired')).toBe(true);
    expect((await store.alerts.get(alertId))!.state).toBe('unacknowledged');
  });

  it('marking looks only at calls queued since the last mark, and misses none', async () => {
    const clock = manualClock();
    const store = await tempStore(clock);
    cleanups.push(() => store.close());
    const mark = createWaitingMarker(store);
    const first = await seed(store, clock());
    await mark();
    // A reason written after the mark (straight through the store) is not looked at again...
    await store.transaction((tx) => tx.calls.move(first.callId, { from: 'queued', to: 'queued', at: clock(), attempt: 0, reason: 'kept' }));
    const second = await seed(store, clock(), '5329876543');
    await mark();
    expect((await store.calls.get(second.callId))!.lastReason).toBe(NO_TRUNK_REASON);
    // ...and the first call, already marked, was not touched by the second mark.
    expect((await store.calls.get(first.callId))!.lastReason).toBe('kept');
  });

  it('the telephony without a trunk sweeps on start, on the appliance clock', async () => {
    const clock = manualClock();
    const store = await tempStore(clock);
    const { callId } = await seed(store, clock());
    clock.advance(MAX_AGE_S * 1000 + 1);
    const telephony = withEngine(createTelephony(configSchema.parse({ calls: { max_age_s: MAX_AGE_S } }), { store, clock, log: silentLogger(), audio: testAudioSource(20) }));
    cleanups.push(async () => {
      await telephony.stop();
      await store.close();
    });
    expect(telephony.trunkConfigured()).toBe(false);
    telephony.start();
    await expect.poll(async () => (await store.calls.get(callId))!.state).toBe('expired');
  });

  it('a trunk configured later never dials the expired backlog, only new calls', async () => {
    const clock = manualClock();
    const store = await tempStore(clock);
    cleanups.push(() => store.close());
    const stale = await seed(store, clock());
    clock.advance(MAX_AGE_S * 1000 + 1);
    await sweepWithoutTrunk({ store, clock, log: silentLogger(), maxAgeS: MAX_AGE_S, timeZone: 'Europe/Istanbul' });
    expect((await store.calls.get(stale.callId))!.state).toBe('expired');

    // The operator sets sip.server and restarts: one PBX that answers exactly one INVITE (busy).
    const sipp = await startSipp({ scenario: 'final.xml', calls: 1, fill: { code: 486, reason: 'Busy Here' } });
    const rtp = await freePort();
    const config = configSchema.parse({
      // No OPTIONS probe: sipp would take it for its one call (test/helpers/appliance.ts says more).
      sip: { server: `127.0.0.1:${sipp.port}`, local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 10}`, t1_ms: 50, options_interval_s: 0 },
      calls: { max_age_s: MAX_AGE_S, per_number_gap_s: 0 },
    });
    const telephony = withEngine(createTelephony(config, { store, clock, log: silentLogger(), audio: testAudioSource(20) }));
    cleanups.push(async () => {
      await telephony.stop();
      await sipp.stop();
    });
    expect(telephony.trunkConfigured()).toBe(true);
    const fresh = await seed(store, clock(), '5321234567'); // same number: only the new alert rings
    telephony.start();
    await expect.poll(async () => (await store.calls.get(fresh.callId))!.lastSipCode, { timeout: 10_000 }).toBe(486);
    expect(await sipp.exited).toBe(0); // exactly one INVITE was answered: the fresh call's
    expect((await store.calls.get(stale.callId))!.state).toBe('expired');
    expect((await store.calls.events(stale.callId)).map((e) => e.to)).toEqual(['expired']);
    expect((await store.calls.get(stale.callId))!.bundledInto).toBeNull();
  });
});
