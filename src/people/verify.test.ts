import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { testAudio, testAudioSource } from '../../test/helpers/test-audio';
import type { CallOutcome, CallContext } from '../call-model';
import { runClaimedCall } from '../calls/run-claimed-call';
import { periodOf } from '../credit';
import { silentLogger } from '../log';
import { personJson } from '../outward';
import type { Store } from '../store';
import { createPeopleService } from './service';
import { checkOf, queueVerification, verificationResults } from './verify';

// docs/on-call.md "Verification": the bookkeeping of verification
// calls on both stores (the postgres project runs this file too), with the dial answered here;
// the calls through the binary against sipp are in test/integration/people-verify.test.ts.
let clock: ReturnType<typeof manualClock>;
let store: Store;
beforeEach(async () => {
  clock = manualClock('2026-11-15T12:00:00Z');
  store = await tempStore(clock);
});
afterEach(() => store.close());

const TZ = 'Europe/Istanbul';

async function setup() {
  const acc = await store.transaction((tx) => tx.accounts.create({ name: 't', plan: 'starter' }));
  const people = createPeopleService({ store, clock, defaultLanguage: 'tr' });
  const r = await people.create(acc.id, { name: 'Ayşe', phones: ['5321111111', '5322222222', '5323333333'], language: 'en' });
  if (!r.ok) throw new Error(r.code);
  return { acc, people, person: r.person };
}

/** Claims the next call and runs it with the dial answering `outcome`; returns what was claimed and heard. */
async function placeNext(outcome: CallOutcome) {
  const call = await store.transaction((tx) => tx.calls.claim(clock(), 60_000));
  if (!call) throw new Error('nothing to claim');
  const heard: { name: string; context?: CallContext }[] = [];
  const audio = {
    ...testAudioSource(5),
    async forVerification(name: string, context?: CallContext) {
      heard.push({ name, ...(context ? { context } : {}) });
      return testAudio(5);
    },
    async verified() {
      return testAudio(5, 3);
    },
  };
  await runClaimedCall(
    {
      store,
      // As the telephone does: an answered call reports its answer, then plays the audio.
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

const ok200 = (code: 'ACKNOWLEDGED' | 'COMPLETED' | 'VOICEMAIL'): CallOutcome =>
  code === 'COMPLETED' ? { code, status: 200, reason: 'hung up', remoteHangup: true } : { code, status: 200, reason: code.toLowerCase() };

describe('verification calls', () => {
  it('1 pressed sets verified_at; busy, no answer, no key and voicemail keep ok false with the reason; each tried once', async () => {
    const { acc, person } = await setup();
    const started = await queueVerification({ store, clock }, acc.id, 'ayşe');
    if (!started.ok) throw new Error(started.code);
    expect(started.calls.map((c) => c.number)).toEqual(['5321111111', '5322222222', '5323333333']);
    const answers: CallOutcome[] = [ok200('ACKNOWLEDGED'), { code: 'SIP_FINAL', status: 486, reason: 'Busy Here' }, { code: 'NO_ANSWER', status: 487, reason: 'no answer' }];
    for (const a of answers) {
      clock.advance(1000);
      await placeNext(a);
    }
    const calls = await store.calls.getMany(started.calls.map((c) => c.id));
    const byId = new Map(calls.map((c) => [c.id, c]));
    const ordered = started.calls.map((c) => byId.get(c.id)!);
    // Never retried: max_attempts is 3, yet busy and no answer are final after one attempt.
    expect(ordered.map((c) => [c.state, c.attempts, c.charged])).toEqual([
      ['acknowledged', 1, false],
      ['busy', 1, false],
      ['no_answer', 1, false],
    ]);
    expect(verificationResults(ordered)).toEqual([
      { number: '5321111111', ok: true, reason: null },
      { number: '5322222222', ok: false, reason: 'busy' },
      { number: '5323333333', ok: false, reason: 'no answer' },
    ]);
    const after = (await store.people.get(person.id))!;
    expect(after.phones).toEqual([
      { number: '5321111111', verifiedAt: Date.parse('2026-11-15T12:00:01Z'), lastCheck: { at: Date.parse('2026-11-15T12:00:01Z'), ok: true, reason: null } },
      { number: '5322222222', verifiedAt: null, lastCheck: { at: Date.parse('2026-11-15T12:00:02Z'), ok: false, reason: 'busy' } },
      { number: '5323333333', verifiedAt: null, lastCheck: { at: Date.parse('2026-11-15T12:00:03Z'), ok: false, reason: 'no answer' } },
    ]);
    expect(personJson(after).phones[0]).toEqual({ number: '5321111111', verified_at: '2026-11-15T12:00:01.000Z', last_check: { at: '2026-11-15T12:00:01.000Z', ok: true, reason: null } });
    // No credit used by any of them.
    expect(await store.usage.usedIn(acc.id, periodOf(clock(), TZ))).toBe(0);

    // Answered without a key, and a voicemail: ok false. A failed check keeps an earlier verification.
    await queueVerification({ store, clock }, acc.id, person.id, '0532 111 11 11');
    clock.advance(1000);
    await placeNext(ok200('COMPLETED'));
    expect((await store.people.get(person.id))!.phones[0]).toMatchObject({ verifiedAt: Date.parse('2026-11-15T12:00:01Z'), lastCheck: { ok: false, reason: 'no key' } });
    await queueVerification({ store, clock }, acc.id, person.id, '5322222222');
    await placeNext(ok200('VOICEMAIL'));
    expect((await store.people.get(person.id))!.phones[1]).toMatchObject({ verifiedAt: null, lastCheck: { ok: false, reason: 'voicemail' } });
  });

  it("says who it is for in the person's language, and never speaks an alert", async () => {
    const { acc } = await setup();
    await queueVerification({ store, clock }, acc.id, 'Ayşe', '5321111111');
    const { heard, call } = await placeNext(ok200('ACKNOWLEDGED'));
    expect(call).toMatchObject({ verify: true, alertId: null, personPhone: 0, bundled: [] });
    expect(heard).toEqual([{ name: 'Ayşe', context: { escalationOrdinal: 0, language: 'en' } }]);
  });

  it('a changed number loses its verification; a number kept keeps it', async () => {
    const { acc, people, person } = await setup();
    await queueVerification({ store, clock }, acc.id, 'Ayşe', '5321111111');
    await placeNext(ok200('ACKNOWLEDGED'));
    await queueVerification({ store, clock }, acc.id, 'Ayşe', '5322222222');
    await placeNext(ok200('ACKNOWLEDGED'));
    const r = await people.update(acc.id, 'Ayşe', { phones: ['5321111111', '5329999999'] });
    if (!r.ok) throw new Error(r.code);
    expect(r.person.phones).toEqual([
      { number: '5321111111', verifiedAt: clock(), lastCheck: { at: clock(), ok: true, reason: null } },
      { number: '5329999999', verifiedAt: null, lastCheck: null },
    ]);
    // A call placed to the old number that ends after the change proves nothing about the new one.
    await queueVerification({ store, clock }, acc.id, person.id, '5329999999');
    await people.update(acc.id, 'Ayşe', { phones: ['5321111111', '5328888888'] });
    await placeNext(ok200('ACKNOWLEDGED'));
    expect((await store.people.get(person.id))!.phones[1]).toEqual({ number: '5328888888', verifiedAt: null, lastCheck: null });
  });

  it('is claimed before alert calls that were due earlier, and never bundled with them', async () => {
    const { acc } = await setup();
    const alertId = await store.transaction((tx) => tx.alerts.create({ accountId: acc.id, credentialId: null, key: null, source: 'api', message: 'disk', labels: null }, clock()));
    await store.transaction((tx) =>
      tx.calls.enqueue(
        ['5324444444', '5321111111'].map((phoneNumber) => ({ accountId: acc.id, credentialId: null, source: 'api' as const, phoneNumber, message: 'disk', alertId })),
        clock(),
      ),
    );
    clock.advance(60_000);
    const v = await queueVerification({ store, clock }, acc.id, 'Ayşe', '5321111111');
    if (!v.ok) throw new Error(v.code);
    const first = (await store.transaction((tx) => tx.calls.claim(clock(), 60_000)))!;
    expect(first).toMatchObject({ id: v.calls[0]!.id, verify: true, bundled: [] });
    // The alert call of the same number is still queued, not spoken in the verification call.
    const second = (await store.transaction((tx) => tx.calls.claim(clock(), 60_000)))!;
    expect(second).toMatchObject({ verify: false, alertId });
  });

  it('refuses an unknown person, a phone not theirs, a person with no phone', async () => {
    const { acc, people } = await setup();
    expect(await queueVerification({ store, clock }, acc.id, 'Cem')).toEqual({ ok: false, code: 'person_not_found' });
    expect(await queueVerification({ store, clock }, acc.id, 'Ayşe', '5327777777')).toEqual({ ok: false, code: 'invalid_person', problem: 'phone: not a phone of Ayşe: 5327777777' });
    await people.create(acc.id, { name: 'Deniz' });
    expect(await queueVerification({ store, clock }, acc.id, 'Deniz')).toEqual({ ok: false, code: 'invalid_person', problem: 'Deniz has no phone' });
  });

  it('checkOf names every failure', () => {
    expect(checkOf('acknowledged')).toEqual({ ok: true, reason: null });
    expect((['completed', 'no_answer', 'busy', 'voicemail', 'rejected'] as const).map((s) => checkOf(s).reason)).toEqual(['no key', 'no answer', 'busy', 'voicemail', 'rejected']);
  });
});
