import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { testAudioSource } from '../../test/helpers/test-audio';
import { createAlertActions } from '../alerts';
import type { CallOutcome } from '../call-model';
import { runClaimedCall, TEXTED_INSTEAD_REASON, type RunConfig } from '../calls/run-claimed-call';
import { createLogger } from '../log';
import { alertJson } from '../outward';
import type { DialRequest } from '../sip';
import type { Person, Store } from '../store';
import { createTextNotifier } from './notifier';
import { createReplyHandler } from './replies';
import { recordingSecondPath } from '../../test/helpers/recording-second-path';

// docs/second-path.md "When no trunk is up": a person's call that no trunk can place is not
// dialled but texted, through the one notice outbox and loop (notifier.ts). Through the binary,
// with a trunk at a closed port and the modem simulator: test/integration/second-path-no-trunk.test.ts.
let clock: ReturnType<typeof manualClock>;
let store: Store;
const log = createLogger('silent');

beforeEach(async () => {
  clock = manualClock('2026-11-15T12:00:00Z');
  store = await tempStore(clock);
});
afterEach(() => store.close());

const CALLS: RunConfig = { answer_delay_ms: 0, ring_timeout_s: 5, max_age_s: 3600, max_call_s: 60, retry_delays_s: [60], max_attempts: 3 };

/** Claims the next due call and runs it with `textInstead` saying no trunk is up; returns the numbers it dialled. */
async function runNext(o: { noTrunk: boolean; calls?: RunConfig }) {
  const dialled: string[] = [];
  const call = await store.transaction((tx) => tx.calls.claim(clock(), 60_000));
  if (!call) return { call: null, dialled };
  await runClaimedCall(
    {
      store,
      clock,
      log,
      calls: o.calls ?? CALLS,
      audio: testAudioSource(1),
      attemptLimitMs: 60_000,
      shutdown: new AbortController().signal,
      hangUp: new AbortController().signal,
      timeZone: 'Europe/Istanbul',
      textInstead: () => o.noTrunk,
      async dial(r: DialRequest): Promise<CallOutcome> {
        dialled.push(r.number);
        return { code: 'SIP_FINAL', status: 486, reason: 'Busy Here' };
      },
    },
    call,
  );
  return { call: (await store.calls.get(call.id))!, dialled };
}

async function setup() {
  const acc = await store.transaction((tx) => tx.accounts.create({ name: 't', plan: 'starter' }));
  await store.transaction((tx) => tx.outbox.setTarget(acc.id, { url: 'http://127.0.0.1:9/cb', secret: 's'.repeat(32) }));
  const person = (f: Partial<Pick<Person, 'name' | 'sms' | 'emails'>> & { phones?: string[] }) =>
    store.transaction((tx) =>
      tx.people.create(acc.id, { name: f.name ?? 'Ayşe', phones: (f.phones ?? ['5321111111']).map((number) => ({ number, verifiedAt: null })), sms: f.sms ?? [], emails: f.emails ?? [], language: 'en', timeZone: null }, clock()),
    );
  const alert = () => store.transaction((tx) => tx.alerts.create({ accountId: acc.id, credentialId: null, key: null, source: 'api', message: 'disk full on db1', labels: null }, clock()));
  const call = (alertId: string, p: Person | null, o: { ordinal?: number; verify?: boolean; phone?: string } = {}) =>
    store.transaction(async (tx) =>
      (
        await tx.calls.enqueue(
          [{ accountId: acc.id, credentialId: null, source: 'api', phoneNumber: o.phone ?? p?.phones[0]!.number ?? '5320000000', message: 'disk full on db1', alertId, escalationOrdinal: o.ordinal ?? 1, person: p ? { personId: p.id, phone: 0 } : null, verify: o.verify }],
          clock(),
        )
      )[0]!,
    );
  return { acc, person, alert, call };
}

describe('a call no trunk can place becomes a text (docs/second-path.md "When no trunk is up")', () => {
  it('is not dialled but retried; the person is texted once for it (their first call already owed the text), a later call of theirs texts again', async () => {
    const { acc, person, alert, call } = await setup();
    const ayse = await person({ sms: ['5321234567'], emails: ['ayse@example.com'] });
    const { path, texts, emails } = recordingSecondPath({ via: 'gsm1' });
    const notifier = createTextNotifier({ store, clock, log, secondPath: path, leaseMs: 60_000, codes: () => ['4821'] });
    const alertId = await alert();
    const first = await call(alertId, ayse);

    const r1 = await runNext({ noTrunk: true });
    expect(r1.dialled).toEqual([]);
    // A failed attempt, retried as retry-policy.ts says: a trunk back by then rings her.
    expect(r1.call).toMatchObject({ id: first, state: 'queued', attempts: 1, lastReason: `failed: ${TEXTED_INSTEAD_REASON}; retry in 60 s` });
    await notifier.tick();
    await notifier.tick();
    // One text and one e-mail: the notice owed with her first call stands for this call too.
    expect(texts).toEqual([{ number: '5321234567', text: 'ALERT 4821: disk full on db1\nReply 1 to acknowledge, or "resolve 4821" to resolve.' }]);
    expect(emails.map((e) => e.to)).toEqual(['ayse@example.com']);

    // The retry, still with no trunk: the same call, no second text.
    clock.advance(60_000);
    const r2 = await runNext({ noTrunk: true });
    expect(r2.call).toMatchObject({ id: first, state: 'queued', attempts: 2 });
    await notifier.tick();
    expect(texts).toHaveLength(1);

    // A later call to her for the same alert (the policy's next step) would ring her again: a text instead, no e-mail.
    clock.advance(1000);
    const later = await call(alertId, ayse, { ordinal: 2 });
    expect((await runNext({ noTrunk: true })).call).toMatchObject({ id: later, state: 'queued' });
    await notifier.tick();
    expect(texts.map((t) => t.number)).toEqual(['5321234567', '5321234567']);
    expect(emails.map((e) => e.to)).toEqual(['ayse@example.com']);

    // Her first call's last attempt, the later call's retry bundled into it (same number): both
    // end failed with the reason, the alert unacknowledged, with their callbacks; no text more.
    clock.advance(60_000);
    expect((await runNext({ noTrunk: true })).call).toMatchObject({ id: first, state: 'failed', attempts: 3, lastReason: `${TEXTED_INSTEAD_REASON} (attempt 3 of 3)` });
    await notifier.tick();
    expect(texts).toHaveLength(2);
    const json = await alertJson(store, (await store.alerts.get(alertId))!);
    expect(json.events.map((e) => [e.type, e.address])).toEqual([
      ['sms.sent', '5321234567'],
      ['email.sent', 'ayse@example.com'],
      ['sms.sent', '5321234567'],
    ]);
    const outbox = (await store.outbox.recent(acc.id, 50)).map((e) => e.type).sort();
    expect(outbox).toEqual(['alert.unacknowledged', 'call.failed', 'call.failed', 'email.sent', 'sms.sent', 'sms.sent']);
  });

  it('her next phone, queued at once when the first could not be placed, is the same step: one text per step', async () => {
    const { person, alert, call } = await setup();
    const ayse = await person({ sms: ['5321234567'], phones: ['5321111111', '5322222222'] });
    const { path, texts } = recordingSecondPath({ via: 'gsm1' });
    const notifier = createTextNotifier({ store, clock, log, secondPath: path, leaseMs: 60_000 });
    const calls = { ...CALLS, retry_delays_s: [3600] };
    const alertId = await alert();
    await call(alertId, ayse);
    clock.advance(1000);
    expect((await runNext({ noTrunk: true, calls })).call?.phoneNumber).toBe('5321111111');
    clock.advance(1000);
    // Queued a second after her first call, in the same step: the first call's text stands for it.
    expect((await runNext({ noTrunk: true, calls })).call).toMatchObject({ phoneNumber: '5322222222', state: 'queued', lastReason: `failed: ${TEXTED_INSTEAD_REASON}; retry in 3600 s` });
    await notifier.tick();
    expect(texts).toHaveLength(1);

    // The policy's next step calls her again ten minutes on: a text for it, and none more for her second phone.
    clock.advance(10 * 60_000);
    await call(alertId, ayse, { ordinal: 2 });
    clock.advance(1000);
    expect((await runNext({ noTrunk: true, calls })).call).toMatchObject({ phoneNumber: '5321111111', escalationOrdinal: 2 });
    clock.advance(1000);
    expect((await runNext({ noTrunk: true, calls })).call).toMatchObject({ phoneNumber: '5322222222', escalationOrdinal: 2 });
    await notifier.tick();
    await notifier.tick();
    expect(texts).toHaveLength(2);
  });

  it('the last attempt ends the call failed and the alert unacknowledged; the text still goes and answers it', async () => {
    const { person, alert, call } = await setup();
    const ayse = await person({ sms: ['5321234567'] });
    const { path, texts } = recordingSecondPath({ via: 'gsm1' });
    const notifier = createTextNotifier({ store, clock, log, secondPath: path, leaseMs: 60_000 });
    const alertId = await alert();
    await call(alertId, ayse);
    const r = await runNext({ noTrunk: true, calls: { ...CALLS, max_attempts: 1 } });
    expect(r.call).toMatchObject({ state: 'failed', lastReason: `${TEXTED_INSTEAD_REASON} (attempt 1 of 1)` });
    expect((await store.alerts.get(alertId))!.state).toBe('unacknowledged');
    await notifier.tick();
    expect(texts.map((t) => t.number)).toEqual(['5321234567']);
    const reply = createReplyHandler({ store, clock, log, alerts: createAlertActions({ store, clock, timeZone: 'Europe/Istanbul' }) });
    expect(await reply({ path: 'modem', via: 'gsm1', from: '+905321234567', body: '1', truncated: false })).toMatchObject({ kind: 'done', alertId, changed: true });
    expect((await store.alerts.get(alertId))!).toMatchObject({ state: 'acknowledged', acknowledgedBy: 'sms:5321234567' });
  });

  it('dialled as ever: a bare number, a person with no --sms number, a verification call, or a trunk up', async () => {
    const { person, alert, call } = await setup();
    const noSms = await person({ name: 'Bob', emails: ['bob@example.com'], phones: ['5323333333'] });
    const ayse = await person({ sms: ['5321234567'], phones: ['5324444444'] });
    const alertId = await alert();
    await call(alertId, null, { phone: '5320000000' });
    expect((await runNext({ noTrunk: true })).dialled).toEqual(['5320000000']);
    await call(alertId, noSms);
    expect((await runNext({ noTrunk: true })).dialled).toEqual(['5323333333']);
    await call(alertId, ayse, { verify: true });
    expect((await runNext({ noTrunk: true })).dialled).toEqual(['5324444444']);
    await call(alertId, ayse);
    const up = await runNext({ noTrunk: false });
    expect(up.dialled).toEqual(['5324444444']);
    expect(up.call!.lastReason).not.toContain(TEXTED_INSTEAD_REASON);
  });
});
