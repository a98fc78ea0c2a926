import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { testAudio, testAudioSource } from '../../test/helpers/test-audio';
import type { CallContext, CallOutcome } from '../call-model';
import { createAlertActions } from '../alerts';
import { runClaimedCall } from '../calls/run-claimed-call';
import { periodOf } from '../credit';
import { silentLogger } from '../log';
import { createPeopleService } from '../people';
import { createOncallWatch, createSchedulesService } from '../schedules';
import type { Store } from '../store';
import { createHandoffLoop } from './loop';

// docs/on-call.md "Hand-off calls", on both stores (the postgres project runs this file too),
// with a manual clock and the dial answered here; exactly once across two appliances on one
// PostgreSQL is handoff.pg.test.ts.
let clock: ReturnType<typeof manualClock>;
let store: Store;
beforeEach(async () => {
  // 08:00 in Istanbul: Ayşe is on call until 09:00 local (06:00Z), then Bora.
  clock = manualClock('2026-11-16T05:00:00Z');
  store = await tempStore(clock);
});
afterEach(() => store.close());

const TZ = 'Europe/Istanbul';
const MIN = 60_000;

async function rig(handoffCall = true) {
  const acc = await store.transaction((tx) => tx.accounts.create({ name: 't', plan: 'starter' }));
  const people = createPeopleService({ store, clock, defaultLanguage: 'tr' });
  const ayse = await people.create(acc.id, { name: 'Ayşe', phones: ['5321111111'], language: 'en' });
  const bora = await people.create(acc.id, { name: 'Bora', phones: ['5322222222', '5323333333'], language: 'tr' });
  if (!ayse.ok || !bora.ok) throw new Error('people');
  const schedules = createSchedulesService({ store, clock });
  const s = await schedules.create(acc.id, {
    name: 'noc',
    timeZone: TZ,
    layers: [{ participants: [{ person: 'Ayşe' }, { person: 'Bora' }], shift: '1d', start: '2026-11-15T09:00' }],
    handoffCall,
  });
  if (!s.ok) throw new Error(JSON.stringify(s));
  const watch = createOncallWatch({ store, clock, log: silentLogger(), leaseMs: 30_000 });
  const loop = createHandoffLoop({ store, clock, log: silentLogger(), leaseMs: 30_000, timeZone: TZ, language: 'tr' });
  const calls = async () => (await store.calls.list({ accountId: acc.id })).reverse();
  return { acc, ayse: ayse.person, bora: bora.person, schedule: s.schedule, schedules, watch, loop, calls };
}

/** Claims the next call and runs it with the dial answering `outcome`; returns it and what was spoken. */
async function placeNext(outcome: CallOutcome) {
  const call = await store.transaction((tx) => tx.calls.claim(clock(), 60_000));
  if (!call) throw new Error('nothing to claim');
  const heard: { handoff?: { schedule: string; until: number | null; timeZone: string }; message?: string; context?: CallContext }[] = [];
  const audio = {
    ...testAudioSource(5),
    async forMessage(message: string, context?: CallContext) {
      heard.push({ message, ...(context ? { context } : {}) });
      return testAudio(5);
    },
    async forHandoff(h: { schedule: string; until: number | null; timeZone: string }, context?: CallContext) {
      heard.push({ handoff: h, ...(context ? { context } : {}) });
      return testAudio(5);
    },
    async handoffConfirmed() {
      return testAudio(5, 3);
    },
  };
  await runClaimedCall(
    {
      store,
      dial: async (request) => {
        if (outcome.status === 200) {
          request.progress.answered('PCMU', { answeredBy: 'human', amdReason: null });
          await request.audio();
        }
        return outcome;
      },
      audio,
      clock,
      log: silentLogger(),
      calls: { answer_delay_ms: 0, ring_timeout_s: 5, max_age_s: 3600, max_call_s: 60, retry_delays_s: [1, 1], max_attempts: 3 },
      attemptLimitMs: 10_000,
      shutdown: new AbortController().signal,
      hangUp: new AbortController().signal,
      timeZone: TZ,
    },
    call,
  );
  return { call, heard };
}

const PRESSED_1: CallOutcome = { code: 'ACKNOWLEDGED', status: 200, reason: 'acknowledged' };
const NO_ANSWER: CallOutcome = { code: 'NO_ANSWER', status: 487, reason: 'no answer' };

/** Past the 09:00 hand-off: the watch writes it, the loop places the first try. */
async function handOff(r: Awaited<ReturnType<typeof rig>>) {
  clock.set('2026-11-16T06:00:02Z');
  expect(await r.watch.tick()).toBe(1);
  return r.loop.tick();
}

describe('hand-off calls', () => {
  it('the incoming person is called in their language with the schedule and the end of the shift; 1 pressed: nothing more', async () => {
    const r = await rig();
    expect(await r.loop.tick()).toBe(0);
    expect(await handOff(r)).toBe(1);
    const [first] = await r.calls();
    // Uncharged, verification-shaped, to Bora's first phone, naming Bora.
    expect(first).toMatchObject({ phoneNumber: '5322222222', personId: r.bora.id, personPhone: 0, verify: true, charged: false, alertId: null, source: 'handoff', handoffId: expect.stringMatching(/^hof_/) });
    expect(await store.usage.usedIn(r.acc.id, periodOf(clock(), TZ))).toBe(0);
    const { heard } = await placeNext(PRESSED_1);
    expect(heard).toEqual([{ handoff: { schedule: 'noc', until: Date.parse('2026-11-17T06:00:00Z'), timeZone: TZ }, context: expect.objectContaining({ language: 'tr' }) }]);
    const h = await store.handoffs.get(first!.handoffId!);
    expect(h).toMatchObject({ state: 'confirmed', tries: 1, confirmedAt: clock(), alertId: null });
    // Nothing more, however long the loop keeps looking.
    for (const after of [1, 3, 11, 30]) {
      clock.set(Date.parse('2026-11-16T06:00:02Z') + after * MIN);
      expect(await r.loop.tick()).toBe(0);
    }
    expect(await r.calls()).toHaveLength(1);
    expect(await store.alerts.findOpen(r.acc.id, 'handoff:noc')).toBeNull();
  });

  it('no answer twice within 10 minutes: handoff:<schedule> is called to the person going off call; a later 1 resolves it', async () => {
    const r = await rig();
    await handOff(r);
    const { call: try1 } = await placeNext(NO_ANSWER);
    // The second try waits retryAfterMs (2 min) after the first ended, and goes to Bora's next phone.
    clock.advance(1 * MIN);
    expect(await r.loop.tick()).toBe(0);
    expect(await r.calls()).toHaveLength(1);
    clock.advance(1 * MIN + 1000);
    expect(await r.loop.tick()).toBe(1);
    const try2 = (await r.calls())[1]!;
    expect(try2).toMatchObject({ phoneNumber: '5323333333', personPhone: 1, handoffId: try1.handoffId, verify: true });
    await placeNext(NO_ANSWER);
    clock.advance(5000); // the loop's next look at a hand-off with a call under way
    expect(await r.loop.tick()).toBe(1);
    const alert = await store.alerts.findOpen(r.acc.id, 'handoff:noc');
    expect(alert).not.toBeNull();
    expect(alert!.message).toBe('Hand-off of schedule noc not confirmed: Bora did not press 1 within 10 minutes. You may still be on call.');
    const alertCalls = await store.calls.ofAlert(alert!.id);
    // To Ayşe, going off call, as a person (her language: English, the alert text above).
    expect(alertCalls.map((c) => ({ number: c.phoneNumber, person: c.personId, verify: c.verify }))).toEqual([{ number: '5321111111', person: r.ayse.id, verify: false }]);
    const { heard } = await placeNext(NO_ANSWER); // the hand-off is not retried before the alert's call: it is claimed as any alert call
    expect(heard).toEqual([]);
    // A later try to Bora, 10 minutes after the last one ended; a 1 on it resolves the alert.
    clock.advance(9 * MIN);
    expect(await r.loop.tick()).toBe(0);
    clock.advance(1 * MIN + 1000);
    expect(await r.loop.tick()).toBe(1);
    const later = await placeNext(PRESSED_1);
    expect(later.call).toMatchObject({ phoneNumber: '5322222222', handoffId: try1.handoffId });
    expect((await store.alerts.get(alert!.id))!.state).toBe('resolved');
    expect(await store.handoffs.get(try1.handoffId!)).toMatchObject({ state: 'confirmed', tries: 3, alertId: alert!.id });
    clock.advance(60 * MIN);
    expect(await r.loop.tick()).toBe(0);
  });

  it('a try still unanswered when the 10 minutes run out: the alert is raised, and that try’s 1 resolves it', async () => {
    const r = await rig();
    await handOff(r);
    // Nobody dials (no trunk): the first try waits in the queue.
    clock.advance(10 * MIN);
    expect(await r.loop.tick()).toBe(1);
    const alert = await store.alerts.findOpen(r.acc.id, 'handoff:noc');
    expect(alert).not.toBeNull();
    // The hand-off call is claimed before the alert's call (verification-shaped calls go first).
    const { call } = await placeNext(PRESSED_1);
    expect(call.handoffId).toMatch(/^hof_/);
    expect((await store.alerts.get(alert!.id))!.state).toBe('resolved');
  });

  it('an override ending hands back to the rotation: the person coming back is called, the override\'s person is the one going off call', async () => {
    const r = await rig();
    // Cem covers Bora's first hour (09:00–10:00 local); at 10:00 Bora comes back.
    const cem = await createPeopleService({ store, clock, defaultLanguage: 'tr' }).create(r.acc.id, { name: 'Cem', phones: ['5324444444'], language: 'en' });
    if (!cem.ok) throw new Error(cem.code);
    const o = await r.schedules.addOverride(r.acc.id, 'noc', { from: '2026-11-16T06:00:00Z', to: '2026-11-16T07:00:00Z', person: 'Cem' });
    expect(o.ok).toBe(true);
    await handOff(r);
    expect((await r.calls()).map((c) => c.phoneNumber)).toEqual(['5324444444']);
    await placeNext(PRESSED_1);
    clock.set('2026-11-16T07:00:02Z');
    expect(await r.watch.tick()).toBe(1);
    expect(await r.loop.tick()).toBe(1);
    expect((await r.calls()).map((c) => c.phoneNumber)).toEqual(['5324444444', '5322222222']);
    const [back] = await store.handoffs.ofSchedule(r.schedule.id, 1);
    expect(back).toMatchObject({ at: Date.parse('2026-11-16T07:00:00Z'), incoming: { name: 'Bora', person: r.bora.id }, outgoing: { name: 'Cem', person: cem.person.id }, until: Date.parse('2026-11-17T06:00:00Z') });
  });

  it('the alert resolved by hand stops the later tries; so does the schedule turned off', async () => {
    const r = await rig();
    await handOff(r);
    clock.advance(10 * MIN);
    expect(await r.loop.tick()).toBe(1); // the first try never dialled: the alert
    const alert = (await store.alerts.findOpen(r.acc.id, 'handoff:noc'))!;
    const [h] = await store.handoffs.ofSchedule(r.schedule.id, 1);
    await placeNext(NO_ANSWER); // the hand-off call, claimed first, ends unanswered
    await createAlertActions({ store, clock, timeZone: TZ }).resolve(r.acc.id, alert.id, 'api');
    clock.advance(11 * MIN);
    expect(await r.loop.tick()).toBe(1);
    expect(await store.handoffs.get(h!.id)).toMatchObject({ state: 'ended', endedReason: 'the alert was resolved', tries: 1 });
    clock.advance(60 * MIN);
    expect(await r.loop.tick()).toBe(0);
    expect((await r.calls()).filter((c) => c.handoffId)).toHaveLength(1);

    // The next day's hand-off, then hand-off calls turned off before its second try.
    clock.set('2026-11-17T06:00:02Z');
    await r.watch.tick();
    expect(await r.loop.tick()).toBe(1);
    await placeNext(NO_ANSWER);
    expect((await r.schedules.update(r.acc.id, 'noc', { handoffCall: false })).ok).toBe(true);
    clock.advance(3 * MIN);
    expect(await r.loop.tick()).toBe(1);
    const [next] = await store.handoffs.ofSchedule(r.schedule.id, 1);
    expect(next).toMatchObject({ state: 'ended', endedReason: 'hand-off calls were turned off', tries: 1, incoming: { name: 'Ayşe' } });
  });

  it('a schedule without --handoff-call calls nobody at its hand-offs', async () => {
    const r = await rig(false);
    expect(r.schedule.handoffCall).toBe(false);
    await handOff(r);
    clock.advance(30 * MIN);
    expect(await r.loop.tick()).toBe(0);
    expect(await r.calls()).toEqual([]);
    expect(await store.handoffs.ofSchedule(r.schedule.id, 10)).toEqual([]);
  });

  it('turned on by update; an outage past the 10 minutes calls nobody about a hand-off long gone', async () => {
    const r = await rig(false);
    const u = await r.schedules.update(r.acc.id, 'noc', { handoffCall: true });
    expect(u.ok && u.schedule.handoffCall).toBe(true);
    clock.set('2026-11-16T06:30:00Z');
    await r.watch.tick();
    expect(await r.loop.tick()).toBe(0);
    clock.set('2026-11-17T06:00:03Z');
    await r.watch.tick();
    expect(await r.loop.tick()).toBe(1);
    expect((await r.calls()).map((c) => c.phoneNumber)).toEqual(['5321111111']);
  });
});
