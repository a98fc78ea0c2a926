import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { intakeDeps, jsonRequest, manualClock, tempStore } from '../../test/helpers/memory-store';
import type { IntakeDeps } from './deps';
import type { Store, Tx } from '../store';
import { acceptApiCall, acceptWebhook, type Outcome } from '.';

// docs/http-api.md "Alerts: dedupe and resolve": alert records, dedupe by (account, key, number),
// resolve by key.
let clock: ReturnType<typeof manualClock>;
let store: Store;
let deps: IntakeDeps;
let cred: { apiKey: string; apiSecret: string; webhookKey: string; accountId: string };

const WINDOW_S = 900;

beforeEach(async () => {
  clock = manualClock();
  store = await tempStore(clock);
  deps = { ...intakeDeps(store, clock), dedupeWindowS: WINDOW_S };
  const account = await store.transaction((tx) => tx.accounts.create({ name: 't', plan: 'starter' }));
  const k = await store.transaction((tx) => tx.credentials.create(account.id));
  cred = { apiKey: k.apiKey, apiSecret: k.apiSecret, webhookKey: k.webhookKey, accountId: account.id };
});
afterEach(() => store.close());

const api = (fields: Record<string, unknown>, opts: Parameters<typeof jsonRequest>[1] = {}) =>
  acceptApiCall(deps, jsonRequest({ api_key: cred.apiKey, api_secret: cred.apiSecret, ...fields }, opts));
const hook = (fields: Record<string, unknown>, opts: Parameters<typeof jsonRequest>[1] = {}) =>
  acceptWebhook(deps, jsonRequest(fields, { webhookKey: cred.webhookKey, ...opts }));
const alarm = (over: Record<string, unknown> = {}) => ({ phone_number: '5321234567', error_message: 'Disk dolu', ...over });
const used = () => store.usage.usedIn(cred.accountId, '2026-11');
const calls = () => store.calls.list({ accountId: cred.accountId, limit: 1000 });
type Queued = Extract<Outcome, { code: 'QUEUED' }>;
const queued = (o: Outcome): Queued => {
  expect(o.code).toBe('QUEUED');
  return o as Queued;
};
/** The dialer's part, by hand: claim the call and end it unanswered at the current time. */
const endUnanswered = async (callId: string) => {
  const claimed = (await store.transaction((tx) => tx.calls.claim(clock(), 60_000)))!;
  expect(claimed.id).toBe(callId);
  await store.transaction((tx) => tx.calls.move(callId, { from: 'dialing', to: 'no_answer', at: clock(), attempt: claimed.attempts, finished: true }));
};

describe('copies at several appliances (one PostgreSQL)', () => {
  it('a keyed request and a resolve serialize on the Idempotency-Key, then on the alert key', async () => {
    const taken: string[] = [];
    // Every transaction's tx, with its serializeOn noted.
    const transaction = store.transaction;
    const noting = (tx: Tx): Tx =>
      new Proxy(tx, {
        get: (t, name) => (name === 'serializeOn' ? (key: string) => (taken.push(key), t.serializeOn(key)) : Reflect.get(t, name)),
      });
    store.transaction = (work) => transaction((tx) => work(noting(tx)));
    await hook(alarm({ alert_key: 'disk/db1' }), { idempotencyKey: 'delivery-1' });
    await hook({ status: 'resolved', alert_key: 'disk/db1' });
    await hook(alarm()); // plain: nothing to serialize on
    const credentialId = (await store.credentials.listForAccount(cred.accountId))[0]!.id;
    expect(taken).toEqual([
      `idempotency ${credentialId} webhook delivery-1`,
      `alert ${cred.accountId} disk/db1`,
      `alert ${cred.accountId} disk/db1`,
    ]);
  });
});

describe('alert records', () => {
  it('every accepted request opens one alert with its source, key and text; its calls point at it', async () => {
    const a = queued((await api(alarm({ alert_key: ' disk/db1 ' }))).outcome);
    const w = queued((await hook(alarm({ phone_number: '5321111111,5322222222' }))).outcome);
    expect(await store.alerts.get(a.alertId!)).toMatchObject({ key: 'disk/db1', source: 'api', message: 'Disk dolu', state: 'open' });
    expect(await store.alerts.get(w.alertId!)).toMatchObject({ key: null, source: 'webhook', state: 'open' });
    expect((await store.calls.ofAlert(w.alertId!)).map((c) => c.id).sort()).toEqual([...w.callIds].sort());
    expect((await store.calls.get(a.callIds[0]!))!.alertId).toBe(a.alertId);
  });

  it('an alert_key over 200 characters is refused before anything is queued, on both endpoints and in a resolve', async () => {
    const long = 'k'.repeat(201);
    expect((await api(alarm({ alert_key: long }))).outcome).toEqual({ code: 'alert_key_too_long' });
    expect((await hook(alarm({ alert_key: long }))).outcome).toEqual({ code: 'alert_key_too_long' });
    expect((await hook({ status: 'resolved', alert_key: long })).outcome).toEqual({ code: 'alert_key_too_long' });
    expect(queued((await api(alarm({ alert_key: 'ğ'.repeat(200) }))).outcome).callIds).toHaveLength(1);
    expect(await used()).toBe(1);
  });

  it('a form-encoded body carries alert_key and status too', async () => {
    const form = (fields: Record<string, string>) =>
      acceptWebhook(deps, { ...jsonRequest(new URLSearchParams(fields).toString(), { contentType: 'application/x-www-form-urlencoded', webhookKey: cred.webhookKey }) });
    const first = queued((await form({ phone_number: '5321234567', error_message: 'x', alert_key: 'f' })).outcome);
    expect(first.deduplicatedCallIds).toEqual([]);
    const r = await form({ status: 'resolved', alert_key: 'f' });
    expect(r.outcome).toEqual({ code: 'RESOLVED', alertId: first.alertId, cancelledCallIds: first.callIds });
  });
});

describe('dedupe', () => {
  it('the same key twice: one call, one credit, the second answer names the existing call', async () => {
    const first = queued((await api(alarm({ alert_key: 'disk/db1' }))).outcome);
    const second = queued((await api(alarm({ alert_key: 'disk/db1' }))).outcome);
    expect(second).toEqual({ code: 'QUEUED', endpoint: 'api', callIds: [], alertId: first.alertId, deduplicatedCallIds: first.callIds });
    expect(await calls()).toHaveLength(1);
    expect(await used()).toBe(1);
  });

  it('two copies racing in one batch queue one call (decided inside the write transaction)', async () => {
    const rs = await Promise.all([1, 2, 3].map(() => hook(alarm({ alert_key: 'race' }))));
    expect(rs.map((r) => queued(r.outcome).callIds.length).sort()).toEqual([0, 0, 1]);
    expect(await calls()).toHaveLength(1);
    expect(await used()).toBe(1);
  });

  it('while the call is in progress, and until the window after it ended, a repeat is deduplicated; then it calls again', async () => {
    const first = queued((await hook(alarm({ phone_number: '5321111111,5322222222', alert_key: 'k' }))).outcome);
    const [a, b] = first.callIds as [string, string];
    const claimed = (await store.transaction((tx) => tx.calls.claim(clock(), 60_000)))!;
    expect(claimed.id).toBe(a);
    expect(queued((await hook(alarm({ phone_number: '5321111111', alert_key: 'k' }))).outcome).deduplicatedCallIds).toEqual([a]);
    await store.transaction((tx) => tx.calls.move(a, { from: 'dialing', to: 'no_answer', at: clock(), attempt: 1, finished: true }));
    clock.advance(WINDOW_S * 1000 - 1);
    expect(queued((await hook(alarm({ phone_number: '5321111111', alert_key: 'k' }))).outcome).callIds).toEqual([]);
    clock.advance(1);
    const later = queued((await hook(alarm({ phone_number: '5321111111,5322222222', alert_key: 'k' }))).outcome);
    // The first number's call ended a window ago: called again. The second still waits: not.
    expect(later.callIds).toHaveLength(1);
    expect(later.deduplicatedCallIds).toEqual([b]);
    expect(later.alertId).toBe(first.alertId);
    expect((await store.calls.get(later.callIds[0]!))!.phoneNumber).toBe('5321111111');
    expect(await used()).toBe(3);
  });

  it('the same key with a new number calls only the new number and counts only it', async () => {
    const first = queued((await hook(alarm({ phone_number: '5321111111', alert_key: 'k' }))).outcome);
    const second = queued((await hook(alarm({ phone_number: '5321111111, 5323333333', alert_key: 'k' }))).outcome);
    expect(second.callIds).toHaveLength(1);
    expect(await store.calls.get(second.callIds[0]!)).toMatchObject({ phoneNumber: '5323333333', alertId: first.alertId });
    expect(second.deduplicatedCallIds).toEqual(first.callIds);
    expect(await used()).toBe(2);
  });

  it('the 402 check counts only new calls', async () => {
    for (let i = 0; i < 13; i++) queued((await api(alarm())).outcome);
    queued((await hook(alarm({ phone_number: '5321111111,5322222222', alert_key: 'k' }))).outcome); // 15 used
    const again = queued((await hook(alarm({ phone_number: '5321111111,5322222222', alert_key: 'k' }))).outcome);
    expect(again.callIds).toEqual([]);
    expect((await hook(alarm({ phone_number: '5321111111,5329999999', alert_key: 'k' }))).outcome).toEqual({ code: 'insufficient_credit' });
    expect(await used()).toBe(15);
  });

  it('no key: two identical requests make two alerts and two calls (the contract credit table holds)', async () => {
    const a = queued((await api(alarm())).outcome);
    const b = queued((await api(alarm())).outcome);
    expect(a.alertId).not.toBe(b.alertId);
    expect(a.deduplicatedCallIds).toBeUndefined();
    for (let i = 0; i < 13; i++) queued((await api(alarm())).outcome);
    expect((await api(alarm())).outcome.code).toBe('insufficient_credit');
    expect(await calls()).toHaveLength(15);
  });

  it('dedupe_window_s = 0 calls again at once but keeps the alert identity', async () => {
    deps = { ...deps, dedupeWindowS: 0 };
    const a = queued((await api(alarm({ alert_key: 'k' }))).outcome);
    const b = queued((await api(alarm({ alert_key: 'k' }))).outcome);
    expect(b.callIds).toHaveLength(1);
    expect(b.alertId).toBe(a.alertId);
    expect(await used()).toBe(2);
  });

  it('an alert closed without a resolve still stands for the window; then the key opens a new alert and calls', async () => {
    const a = queued((await api(alarm({ alert_key: 'k' }))).outcome);
    await endUnanswered(a.callIds[0]!);
    await store.transaction((tx) => tx.alerts.move(a.alertId!, { from: 'open', to: 'unacknowledged', at: clock() }));
    const within = queued((await api(alarm({ alert_key: 'k' }))).outcome);
    expect(within).toMatchObject({ callIds: [], alertId: a.alertId, deduplicatedCallIds: a.callIds });
    clock.advance(WINDOW_S * 1000);
    const b = queued((await api(alarm({ alert_key: 'k' }))).outcome);
    expect(b.alertId).not.toBe(a.alertId);
    expect(b.callIds).toHaveLength(1);
    expect(await store.alerts.get(b.alertId!)).toMatchObject({ state: 'open', key: 'k' });
    expect(await used()).toBe(2);
  });

  it('an acknowledged alert is not called again by a repeat within the window; a new number opens a new alert', async () => {
    const a = queued((await hook(alarm({ alert_key: 'k' }))).outcome);
    await store.transaction((tx) => tx.alerts.move(a.alertId!, { from: 'open', to: 'acknowledged', at: clock(), acknowledgedBy: 'api' }));
    await store.transaction((tx) => tx.calls.move(a.callIds[0]!, { from: 'queued', to: 'cancelled', at: clock(), attempt: 0, finished: true }));
    const r = queued((await hook(alarm({ phone_number: '5321234567,5329999999', alert_key: 'k' }))).outcome);
    expect(r.deduplicatedCallIds).toEqual(a.callIds);
    expect(r.callIds).toHaveLength(1);
    expect(r.alertId).not.toBe(a.alertId);
    expect(await store.calls.get(r.callIds[0]!)).toMatchObject({ phoneNumber: '5329999999', alertId: r.alertId });
  });

  it('after a resolve the same key opens a new alert and calls at once', async () => {
    const a = queued((await api(alarm({ alert_key: 'k' }))).outcome);
    expect((await api({ status: 'resolved', alert_key: 'k' })).outcome.code).toBe('RESOLVED');
    const b = queued((await api(alarm({ alert_key: 'k' }))).outcome);
    expect(b.alertId).not.toBe(a.alertId);
    expect(b.callIds).toHaveLength(1);
  });

  it('an Idempotency-Key replays a deduplicated answer as it was', async () => {
    const first = queued((await api(alarm({ alert_key: 'k' }))).outcome);
    const dup = await api(alarm({ alert_key: 'k' }), { idempotencyKey: 'evt' });
    const replay = await api(alarm({ alert_key: 'k' }), { idempotencyKey: 'evt' });
    expect(replay.replayed).toBe(true);
    expect(replay.outcome).toEqual(dup.outcome);
    expect(queued(replay.outcome).deduplicatedCallIds).toEqual(first.callIds);
  });
});

describe('resolve', () => {
  it('cancels the waiting calls, gives back the credit of the never-dialled ones, places no call', async () => {
    const first = queued((await hook(alarm({ phone_number: '5321111111,5322222222', alert_key: 'k' }))).outcome);
    expect(await used()).toBe(2);
    const r = await api({ status: 'resolved', alert_key: 'k' });
    const resolved = r.outcome as Extract<Outcome, { code: 'RESOLVED' }>;
    expect(resolved).toMatchObject({ code: 'RESOLVED', alertId: first.alertId });
    // Same-millisecond ids have no order of their own: compare as sets.
    expect([...resolved.cancelledCallIds].sort()).toEqual([...first.callIds].sort());
    expect(await Promise.all(first.callIds.map(async (id) => (await store.calls.get(id))!.state))).toEqual(['cancelled', 'cancelled']);
    expect((await store.alerts.get(first.alertId!))!.state).toBe('resolved');
    expect(await used()).toBe(0);
    expect(await calls()).toHaveLength(2);
  });

  it('twice, or for an unknown key: resolved with an empty list', async () => {
    queued((await api(alarm({ alert_key: 'k' }))).outcome);
    expect((await hook({ status: 'Resolved', alert_key: 'k' })).outcome.code).toBe('RESOLVED');
    expect((await hook({ status: 'resolved', alert_key: 'k' })).outcome).toEqual({ code: 'RESOLVED', alertId: null, cancelledCallIds: [] });
    expect((await api({ status: 'resolved', alert_key: 'never' })).outcome).toEqual({ code: 'RESOLVED', alertId: null, cancelledCallIds: [] });
  });

  it('without a key it is "Missing fields", even with a number and text', async () => {
    expect((await api({ status: 'resolved', ...alarm() })).outcome).toEqual({ code: 'missing_fields', missing: ['alert_key'] });
    expect((await hook({ status: 'resolved', ...alarm() })).outcome).toEqual({ code: 'missing_fields', missing: ['alert_key'] });
    expect(await calls()).toHaveLength(0);
  });

  it('credentials and plan are checked first', async () => {
    expect((await api({ status: 'resolved', alert_key: 'k', api_secret: 'wrong' })).outcome).toEqual({ code: 'invalid_api_credentials' });
    await store.transaction((tx) => tx.accounts.setDisabled(cred.accountId, true));
    expect((await hook({ status: 'resolved', alert_key: 'k' })).outcome).toEqual({ code: 'plan_refused' });
  });

  it('an Idempotency-Key replays the resolve answer', async () => {
    const first = queued((await api(alarm({ alert_key: 'k' }))).outcome);
    const r1 = await hook({ status: 'resolved', alert_key: 'k' }, { idempotencyKey: 'r' });
    const r2 = await hook({ status: 'resolved', alert_key: 'k' }, { idempotencyKey: 'r' });
    expect(r2).toMatchObject({ replayed: true, outcome: { code: 'RESOLVED', alertId: first.alertId, cancelledCallIds: first.callIds } });
    expect(r1.outcome).toEqual(r2.outcome);
  });
});
