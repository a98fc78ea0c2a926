import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { httpTestApp } from '../../test/helpers/http-app';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { createFallbackService } from '../accounts';
import { settleAlerts } from '../alerts';
import { silentLogger } from '../log';
import { metrics } from '../metrics';
import { createSchedulesService } from '../schedules';
import type { Store } from '../store';
import { createEscalationEngine, createPoliciesService } from '.';

/**
 * Contract "Nothing silently calls nobody": a request, a heartbeat or an escalation step that
 * resolves to nobody (a schedule not started yet, a gap in the rota) is stored and answered as
 * usual plus `warning`, counted, called back (`alert.unroutable`), its reason says who could
 * not be found, and the account's fallback is called. Through the real intake (POST /api/call,
 * /webhook/receive) and the escalation engine, on an injected clock (the heartbeat checker:
 * src/heartbeats/unroutable.test.ts).
 */
const TZ = 'Europe/Istanbul';
const AYSE = '5321111111';
const OTHER = '5322222222';
const FALLBACK = '5329999999';
const MIN = 60_000;
const GAP = 'step 1: schedule backup has nobody on call';

let clock: ReturnType<typeof manualClock>;
let store: Store;

beforeEach(async () => {
  // Friday 2026-11-20 17:50 in Istanbul: the office-hours layer (Mon–Fri 09:00–18:00) ends in 10 minutes.
  clock = manualClock('2026-11-20T14:50:00Z');
  store = await tempStore(clock);
});
afterEach(() => store.close());

async function rig() {
  const acc = await store.transaction((tx) => tx.accounts.create({ name: 't', plan: 'starter', monthlyCredit: 100 }));
  const cred = await store.transaction((tx) => tx.credentials.create(acc.id));
  await store.transaction((tx) => tx.outbox.setTarget(acc.id, { url: 'http://127.0.0.1:1/cb', secret: 's' }));
  const schedules = createSchedulesService({ store, clock });
  const office = [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', to: '18:00' }];
  for (const s of [
    // Office hours only: nobody on call in the evening (a gap in the rota).
    { name: 'backup', layers: [{ participants: [{ name: 'Ayşe', number: AYSE }], shift: '7d', start: '2026-11-02T09:00', restrictions: office }] },
    // Its only layer starts next year: nobody on call yet.
    { name: 'later', layers: [{ participants: [{ name: 'Cem', number: '5323333333' }], shift: '7d', start: '2027-01-04T09:00' }] },
  ]) {
    const r = await schedules.create(acc.id, { ...s, timeZone: TZ });
    expect(r.ok).toBe(true);
  }
  const policies = createPoliciesService({ store, clock });
  const engine = createEscalationEngine({ store, clock, log: silentLogger(), timeZone: TZ });
  const app = httpTestApp(store, clock);
  const post = async (path: string, body: Record<string, unknown>) => {
    const r = await app.handle(new Request(`http://localhost${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
    return { status: r.status, json: (await r.json()) as Record<string, unknown> };
  };
  const apiCall = (body: Record<string, unknown>) => post('/api/call', { api_key: cred.apiKey, api_secret: cred.apiSecret, error_message: 'Core switch down', ...body });
  const events = async (type: string) =>
    (await store.outbox.recent(acc.id, 50)).filter((e) => e.type === type).map((e) => JSON.parse(e.body) as Record<string, unknown>);
  const setFallback = async (phone: string) => expect((await createFallbackService({ store, clock }).set(acc.id, { phone })).ok).toBe(true);
  return { acc, cred, policies, engine, post, apiCall, events, setFallback };
}

const unroutableCount = async () => (await metrics.alertsUnroutable.get()).values.reduce((n, v) => n + v.value, 0);
/** Ends the alert's waiting calls unanswered (claimed, dialled, no answer) and lets its lifecycle settle it, as the dialer would. */
async function endCallsUnanswered(alertId: string) {
  for (;;) {
    const claimed = await store.transaction((tx) => tx.calls.claim(clock(), 30_000));
    if (!claimed) break;
    expect(claimed.alertId).toBe(alertId);
    await store.transaction(async (tx) => {
      expect(await tx.calls.move(claimed.id, { from: 'dialing', to: 'no_answer', at: clock(), attempt: claimed.attempts, finished: true })).toBe(true);
      await settleAlerts({ store: tx, timeZone: TZ }, [alertId], clock());
    });
  }
}

describe('a request that resolves to nobody', () => {
  it('a gap in the rota: stored, answered as usual plus the warning, counted, called back; the alert says why, not that people were called', async () => {
    const r = await rig();
    clock.set('2026-11-20T15:05:00Z'); // 18:05 local: after office hours
    await r.policies.create(r.acc.id, { name: 'evening', steps: [{ schedules: ['backup'], wait_s: 300 }] });
    const before = await unroutableCount();
    const answer = await r.apiCall({ policy: 'evening', alert_key: 'core-1' });
    expect(answer).toMatchObject({ status: 200, json: { status: 'success', message: 'Call queued', call_id: null, warning: `Nobody to call: ${GAP}` } });
    expect(await unroutableCount()).toBe(before + 1);
    const alertId = answer.json.alert_id as string;
    const alert = (await store.alerts.get(alertId))!;
    expect(alert).toMatchObject({ state: 'unacknowledged', stateReason: GAP, unroutable: GAP });
    expect(alert.stateReason).not.toMatch(/pressed 1/);
    expect(await store.calls.ofAlert(alertId)).toEqual([]);
    expect(await r.events('alert.unroutable')).toEqual([expect.objectContaining({ type: 'alert.unroutable', reason: GAP, fallback: null, alert: expect.objectContaining({ id: alertId }) })]);
    expect(await store.escalations.get(alertId)).toBeNull();
    // Its repeat joins the same alert: answered with the warning again, but not a second
    // unroutable alert (not counted, not called back again).
    const repeat = await r.apiCall({ policy: 'evening', alert_key: 'core-1' });
    expect(repeat.json).toMatchObject({ alert_id: alertId, warning: `Nobody to call: ${GAP}` });
    expect(await unroutableCount()).toBe(before + 1);
    expect(await r.events('alert.unroutable')).toHaveLength(1);
  });

  it('a schedule with nobody yet, through the webhook, with a fallback: the fallback is the one call of the alert; its end keeps why', async () => {
    const r = await rig();
    await r.setFallback('0532 999 99 99');
    await r.policies.create(r.acc.id, { name: 'new-team', steps: [{ schedules: ['later'], wait_s: 300 }, { schedules: ['later'], wait_s: 60 }] });
    const why = 'step 1: schedule later has nobody on call; step 2: schedule later has nobody on call';
    const answer = await r.post(`/webhook/receive?key=${r.cred.webhookKey}`, { error_message: 'disk full', policy: 'new-team' });
    expect(answer).toMatchObject({ status: 200, json: { message: '1 call(s) queued', warning: `Nobody to call: ${why}` } });
    const alertId = answer.json.alert_id as string;
    const calls = await store.calls.ofAlert(alertId);
    expect(calls.map((c) => [c.phoneNumber, c.escalationOrdinal, c.state])).toEqual([[FALLBACK, 0, 'queued']]);
    expect(answer.json.call_ids).toEqual([calls[0]!.id]);
    expect(await r.events('alert.unroutable')).toEqual([expect.objectContaining({ reason: why, fallback: { number: FALLBACK, call_ids: [calls[0]!.id] } })]);
    expect((await store.alerts.get(alertId))!).toMatchObject({ state: 'open', unroutable: why });
    await endCallsUnanswered(alertId);
    expect((await store.alerts.get(alertId))!).toMatchObject({ state: 'unacknowledged', stateReason: `${why}; the fallback was called, nobody pressed 1` });
  });

  it('a schedule whose only participant is a person with no phone: the warning, counted, called back, and the fallback queued', async () => {
    const r = await rig();
    await r.setFallback(FALLBACK);
    await store.transaction((tx) => tx.people.create(r.acc.id, { name: 'Deniz', phones: [], sms: [], emails: [], language: 'tr', timeZone: null }, 0));
    const made = await createSchedulesService({ store, clock }).create(r.acc.id, { name: 'desk', timeZone: TZ, layers: [{ participants: [{ person: 'Deniz' }], shift: '7d', start: '2026-11-02T09:00' }] });
    expect(made.ok).toBe(true);
    await r.policies.create(r.acc.id, { name: 'desk-policy', steps: [{ schedules: ['desk'], wait_s: 300 }] });
    // Deniz is on call, not a gap: the reason names the person (docs/on-call.md "People").
    const why = 'step 1: schedule desk: person Deniz has no phone';
    const before = await unroutableCount();
    const answer = await r.apiCall({ policy: 'desk-policy' });
    expect(answer).toMatchObject({ status: 200, json: { status: 'success', warning: `Nobody to call: ${why}` } });
    expect(await unroutableCount()).toBe(before + 1);
    const alertId = answer.json.alert_id as string;
    const calls = await store.calls.ofAlert(alertId);
    expect(calls.map((c) => [c.phoneNumber, c.escalationOrdinal, c.state])).toEqual([[FALLBACK, 0, 'queued']]);
    expect(await r.events('alert.unroutable')).toEqual([expect.objectContaining({ reason: why, fallback: { number: FALLBACK, call_ids: [calls[0]!.id] } })]);
    expect((await store.alerts.get(alertId))!).toMatchObject({ state: 'open', unroutable: why });
  });

  it('a first step that reaches nobody moves on at once: the next step is called at intake, with no warning', async () => {
    const r = await rig();
    clock.set('2026-11-20T15:05:00Z');
    await r.policies.create(r.acc.id, { name: 'two', steps: [{ schedules: ['backup'], wait_s: 300 }, { numbers: [OTHER], wait_s: 300 }] });
    const before = await unroutableCount();
    const answer = await r.apiCall({ policy: 'two' });
    expect(answer.status).toBe(200);
    expect(answer.json.warning).toBeUndefined();
    const calls = await store.calls.ofAlert(answer.json.alert_id as string);
    expect(calls.map((c) => [c.phoneNumber, c.escalationOrdinal])).toEqual([[OTHER, 2]]);
    expect(await store.escalations.get(answer.json.alert_id as string)).toMatchObject({ state: 'running', round: 1, step: 1 });
    expect(await unroutableCount()).toBe(before);
  });
});

describe('an escalation step that resolves to nobody', () => {
  it('is passed over at once; when every step reaches nobody the fallback is called and the alert says why', async () => {
    const r = await rig();
    await r.setFallback(FALLBACK);
    // 17:50 local: Ayşe is on call in backup until 18:00.
    await r.policies.create(r.acc.id, { name: 'office', steps: [{ schedules: ['backup'], wait_s: 300 }, { schedules: ['later'], wait_s: 300 }], rounds: 2 });
    const answer = await r.apiCall({ policy: 'office' });
    const alertId = answer.json.alert_id as string;
    expect(answer.json.warning).toBeUndefined();
    expect((await store.calls.ofAlert(alertId)).map((c) => c.phoneNumber)).toEqual([AYSE]);
    await endCallsUnanswered(alertId);
    const before = await unroutableCount();
    clock.set('2026-11-20T15:05:00Z'); // 18:05 local: the wait is over and the office closed
    await r.engine.tick();
    const why = 'step 2: schedule later has nobody on call; step 1: schedule backup has nobody on call';
    const calls = await store.calls.ofAlert(alertId);
    expect(calls.map((c) => [c.phoneNumber, c.escalationOrdinal])).toEqual([[AYSE, 1], [FALLBACK, 0]]);
    expect(await store.escalations.get(alertId)).toMatchObject({ state: 'done', reason: why });
    expect((await store.alerts.get(alertId))!).toMatchObject({ state: 'open', unroutable: why });
    expect(await unroutableCount()).toBe(before + 1);
    expect(await r.events('alert.unroutable')).toEqual([expect.objectContaining({ reason: why, fallback: { number: FALLBACK, call_ids: [calls[1]!.id] } })]);
    expect(await r.events('alert.escalated')).toEqual([]);
  });

  it('rounds that ran out after a step reached nobody: the reason counts each step\'s calls and says why, never "every step called"', async () => {
    const r = await rig();
    await r.policies.create(r.acc.id, { name: 'half', steps: [{ numbers: [AYSE], wait_s: 60 }, { schedules: ['later'], wait_s: 300 }], rounds: 2 });
    const before = await unroutableCount();
    const alertId = (await r.apiCall({ policy: 'half' })).json.alert_id as string;
    // Round 1: step 1 called, step 2 passed over; round 2 the same, then the rounds are over.
    for (let round = 0; round < 2; round++) {
      await endCallsUnanswered(alertId);
      clock.advance(2 * MIN);
      await r.engine.tick();
    }
    expect((await store.calls.ofAlert(alertId)).map((c) => [c.phoneNumber, c.escalationOrdinal])).toEqual([[AYSE, 1], [AYSE, 3]]);
    const why = 'step 1 called 2 time(s), step 2 called 0 time(s), nobody pressed 1; step 2: schedule later has nobody on call';
    expect(await store.escalations.get(alertId)).toMatchObject({ state: 'done', reason: why });
    expect((await store.alerts.get(alertId))!).toMatchObject({ state: 'unacknowledged', stateReason: why, unroutable: null });
    // Someone was called: not unroutable.
    expect(await unroutableCount()).toBe(before);
    expect(await r.events('alert.unroutable')).toEqual([]);
  });

  it('a step in the middle that reaches nobody is skipped: the step after it starts at once', async () => {
    const r = await rig();
    await r.policies.create(r.acc.id, { name: 'mid', steps: [{ numbers: [AYSE], wait_s: 60 }, { schedules: ['later'], wait_s: 300 }, { numbers: [OTHER], wait_s: 300 }], rounds: 1 });
    const alertId = (await r.apiCall({ policy: 'mid' })).json.alert_id as string;
    await endCallsUnanswered(alertId);
    clock.advance(2 * MIN);
    await r.engine.tick();
    expect((await store.calls.ofAlert(alertId)).map((c) => [c.phoneNumber, c.escalationOrdinal])).toEqual([[AYSE, 1], [OTHER, 3]]);
    expect(await r.events('alert.escalated')).toEqual([expect.objectContaining({ escalation: expect.objectContaining({ round: 1, step: 3, numbers: [OTHER] }) })]);
    expect((await store.alerts.get(alertId))!.unroutable).toBeNull();
  });
});
