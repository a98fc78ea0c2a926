import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { httpTestApp } from '../../test/helpers/http-app';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { alertJson } from '../outward';
import { callStatusOf } from '../outward';
import { configSchema } from '../config';
import { sign } from '../signing';
import type { Store } from '../store';

// The alert API and the webhook key on the read-and-act endpoints (docs/http-api.md "GET
// /api/alerts/{id}, …").
let clock: ReturnType<typeof manualClock>;
let store: Store;
let app: ReturnType<typeof httpTestApp>;

beforeEach(async () => {
  clock = manualClock();
  store = await tempStore(clock);
  const config = configSchema.parse({});
  app = httpTestApp(store, clock, { config });
});
afterEach(() => store.close());

/** An account with one open alert and a charged, queued call to each number, as the intake makes them. */
async function accountWithAlert(numbers = ['5321111111', '5322222222']) {
  const acc = await store.transaction((tx) => tx.accounts.create({ name: 't', plan: 'starter' }));
  const cred = await store.transaction((tx) => tx.credentials.create(acc.id));
  const { alertId, callIds } = await store.transaction(async (tx) => {
    const alertId = await tx.alerts.create({ accountId: acc.id, credentialId: cred.id, key: 'disk/db1', source: 'webhook', message: 'Disk dolu' }, clock());
    await tx.usage.charge(acc.id, '2026-11', numbers.length);
    const callIds = await tx.calls.enqueue(
      numbers.map((phoneNumber) => ({ accountId: acc.id, credentialId: cred.id, source: 'webhook' as const, phoneNumber, message: 'Disk dolu', alertId })),
      clock(),
    );
    return { alertId, callIds };
  });
  return { accountId: acc.id, apiKey: cred.apiKey, apiSecret: cred.apiSecret, webhookKey: cred.webhookKey, alertId, callIds };
}

const send = (method: 'GET' | 'POST', path: string, headers: Record<string, string> = {}) =>
  app.handle(new Request(`http://localhost${path}`, { method, headers })).then(async (r) => ({ status: r.status, json: await r.json() }));
const withSecret = (c: { apiKey: string; apiSecret: string }) => ({ 'x-api-key': c.apiKey, 'x-api-secret': c.apiSecret });
const withHookKey = (c: { webhookKey: string }) => ({ 'x-webhook-key': c.webhookKey });
const refusal = (status: number, message: string, code: string) => ({ status, json: { status: 'error', message, code } });

describe('GET /api/alerts/:id', () => {
  it('answers the owner with the alert and its calls (each the call status JSON); the CLI builds the same', async () => {
    const a = await accountWithAlert();
    const r = await send('GET', `/api/alerts/${a.alertId}`, withSecret(a));
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ status: 'success', message: 'Alert found', alert: await alertJson(store, (await store.alerts.get(a.alertId))!) });
    expect(r.json.alert).toMatchObject({ id: a.alertId, key: 'disk/db1', source: 'webhook', message: 'Disk dolu', state: 'open', acknowledged_by: null });
    expect(r.json.alert.calls.map((c: { id: string }) => c.id).sort()).toEqual([...a.callIds].sort());
    expect(r.json.alert.calls[0]).toMatchObject({ alert_id: a.alertId, bundled_into: null });
  });

  it('shows the short code and each text and e-mail of the alert, oldest first (docs/second-path.md "On the alert")', async () => {
    const a = await accountWithAlert();
    expect((await send('GET', `/api/alerts/${a.alertId}`, withSecret(a))).json.alert).toMatchObject({ short_code: null, events: [] });
    await store.transaction(async (tx) => {
      expect(await tx.textNotices.assignShortCode(a.alertId, a.accountId, ['4821'])).toBe('4821');
      await tx.textNotices.record({ alertId: a.alertId, accountId: a.accountId, personId: 'per_1', type: 'sms.sent', address: '5321234567', detail: 'modem gsm1', at: clock() });
      await tx.textNotices.record({ alertId: a.alertId, accountId: a.accountId, personId: 'per_1', type: 'email.failed', address: 'a@example.com', detail: 'cannot reach the relay', at: clock() + 1 });
    });
    const alert = (await send('GET', `/api/alerts/${a.alertId}`, withSecret(a))).json.alert;
    expect(alert.short_code).toBe('4821');
    expect(alert.events).toEqual([
      { type: 'sms.sent', at: new Date(clock()).toISOString(), address: '5321234567', person_id: 'per_1', detail: 'modem gsm1' },
      { type: 'email.failed', at: new Date(clock() + 1).toISOString(), address: 'a@example.com', person_id: 'per_1', detail: 'cannot reach the relay' },
    ]);
    // A second alert of the account open at the same time cannot take the code; another account's can.
    const b = await accountWithAlert();
    const other = await store.transaction((tx) => tx.alerts.create({ accountId: a.accountId, credentialId: null, key: null, source: 'api', message: 'm' }, clock()));
    expect(await store.transaction((tx) => tx.textNotices.assignShortCode(other, a.accountId, ['4821', '4822']))).toBe('4822');
    expect(await store.transaction((tx) => tx.textNotices.assignShortCode(b.alertId, b.accountId, ['4821']))).toBe('4821');
    // Once given, the code stays.
    expect(await store.transaction((tx) => tx.textNotices.assignShortCode(a.alertId, a.accountId, ['9999']))).toBe('4821');
  });

  it('accepts the webhook key, here and on GET /api/calls/:id; a wrong one is 403 "Invalid webhook key"', async () => {
    const a = await accountWithAlert();
    expect((await send('GET', `/api/alerts/${a.alertId}`, withHookKey(a))).status).toBe(200);
    const call = await send('GET', `/api/calls/${a.callIds[0]}`, withHookKey(a));
    expect(call).toEqual({ status: 200, json: { status: 'success', message: 'Call found', call: await callStatusOf(store, a.callIds[0]!) } });
    expect(call.json.call.alert_id).toBe(a.alertId);
    const wrong = refusal(403, 'Invalid webhook key', 'invalid_webhook_key');
    expect(await send('GET', `/api/alerts/${a.alertId}`, { 'x-webhook-key': 'vwk_wrong' })).toEqual(wrong);
    expect(await send('GET', `/api/calls/${a.callIds[0]}`, { 'x-webhook-key': 'vwk_wrong' })).toEqual(wrong);
  });

  it("no credentials 401; another account's alert and a missing one 404 \"Alert not found\"", async () => {
    const a = await accountWithAlert();
    const other = await accountWithAlert();
    expect((await send('GET', `/api/alerts/${a.alertId}`)).json.code).toBe('missing_api_credentials');
    const notFound = refusal(404, 'Alert not found', 'alert_not_found');
    expect(await send('GET', `/api/alerts/${a.alertId}`, withSecret(other))).toEqual(notFound);
    expect(await send('GET', `/api/alerts/${a.alertId}`, withHookKey(other))).toEqual(notFound);
    expect(await send('GET', '/api/alerts/alt_nope', withSecret(a))).toEqual(notFound);
    expect(await send('POST', `/api/alerts/${a.alertId}/acknowledge`, withSecret(other))).toEqual(notFound);
    expect(await send('POST', `/api/alerts/${a.alertId}/resolve`, withHookKey(other))).toEqual(notFound);
    expect((await store.alerts.get(a.alertId))!.state).toBe('open');
  });

  it('a signature covers the path: valid passes, one made for another path is "Invalid signature"', async () => {
    const a = await accountWithAlert();
    const ts = String(Math.floor(clock() / 1000));
    const sig = (p: string) => ({ 'x-api-key': a.apiKey, 'x-timestamp': ts, 'x-signature': sign(a.apiSecret, ts, new TextEncoder().encode(p)) });
    const path = `/api/alerts/${a.alertId}`;
    expect((await send('GET', path, sig(path))).status).toBe(200);
    expect(await send('POST', `${path}/resolve`, sig(path))).toEqual(refusal(403, 'Invalid signature', 'invalid_signature'));
    expect((await store.alerts.get(a.alertId))!.state).toBe('open');
  });
});

describe('POST /api/alerts/:id/acknowledge and /resolve', () => {
  it('acknowledge: by "api", waiting calls cancelled, never-dialled credit back; again: unchanged', async () => {
    const a = await accountWithAlert();
    const r = await send('POST', `/api/alerts/${a.alertId}/acknowledge`, withHookKey(a));
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ status: 'success', message: 'Alert acknowledged', changed: true, alert_id: a.alertId });
    expect([...r.json.cancelled_call_ids].sort()).toEqual([...a.callIds].sort());
    expect(r.json.alert).toMatchObject({ state: 'acknowledged', acknowledged_by: 'api', acknowledged_at: new Date(clock()).toISOString() });
    expect(r.json.alert.calls.map((c: { state: string }) => c.state)).toEqual(['cancelled', 'cancelled']);
    expect(await store.usage.usedIn(a.accountId, '2026-11')).toBe(0);
    const again = await send('POST', `/api/alerts/${a.alertId}/resolve`, withSecret(a));
    expect(again.json).toMatchObject({ status: 'success', message: 'Alert already acknowledged', changed: false, cancelled_call_ids: [] });
  });

  it('an unacknowledged alert (its calls ended unanswered) may still be acknowledged, or resolved, once', async () => {
    const [a, b] = [await accountWithAlert(['5321111111']), await accountWithAlert(['5322222222'])];
    for (const x of [a, b]) {
      await store.transaction((tx) =>
        tx.alerts.move(x.alertId, { from: 'open', to: 'unacknowledged', at: clock(), reason: 'every call ended without an acknowledgement', acknowledgedBy: null }),
      );
    }
    const ack = await send('POST', `/api/alerts/${a.alertId}/acknowledge`, withSecret(a));
    expect(ack.json).toMatchObject({ message: 'Alert acknowledged', changed: true, alert: { state: 'acknowledged', acknowledged_by: 'api' } });
    const res = await send('POST', `/api/alerts/${b.alertId}/resolve`, withSecret(b));
    expect(res.json).toMatchObject({ message: 'Alert resolved', changed: true, alert: { state: 'resolved' } });
    expect((await send('POST', `/api/alerts/${a.alertId}/resolve`, withSecret(a))).json).toMatchObject({ message: 'Alert already acknowledged', changed: false });
  });

  it('resolve: resolved, waiting calls cancelled', async () => {
    const a = await accountWithAlert(['5321111111']);
    const r = await send('POST', `/api/alerts/${a.alertId}/resolve`, withSecret(a));
    expect(r.json).toMatchObject({ status: 'success', message: 'Alert resolved', changed: true, cancelled_call_ids: a.callIds });
    expect(r.json.alert).toMatchObject({ state: 'resolved', resolved_at: new Date(clock()).toISOString() });
  });

  it('GET on an action path is 405 with Allow: POST', async () => {
    const a = await accountWithAlert();
    const r = await app.handle(new Request(`http://localhost/api/alerts/${a.alertId}/acknowledge`, { headers: withSecret(a) }));
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('POST');
  });
});
