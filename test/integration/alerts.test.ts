import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applianceDir, provision, type ApplianceDir, type RunningAppliance } from '../helpers/appliance';
import { FORM, form, post } from '../helpers/http';

// docs/http-api.md "Alerts: dedupe and resolve" and "GET /api/alerts/{id}, …" against the compiled
// binary over real HTTP: alert records, dedupe, resolve, the alert API and the CLI. No SIP
// trunk: calls stay queued unless an alert closes.
const WINDOW_S = 2;
let dir: ApplianceDir;
let app: RunningAppliance;
let cred: ReturnType<typeof provision>;
let other: ReturnType<typeof provision>;

beforeAll(async () => {
  dir = applianceDir({ alerts: { dedupe_window_s: WINDOW_S } });
  cred = provision(dir, 'professional');
  other = provision(dir, 'professional');
  app = await dir.start();
});
afterAll(() => app?.stop());

let seq = 0;
/** A key of its own per test, so tests share the appliance without sharing alerts. */
const uniqueKey = (name: string) => `${name}-${++seq}`;
const apiCall = (over: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  post(`${app.url}/api/call`, { api_key: cred.apiKey, api_secret: cred.apiSecret, phone_number: '5321234567', error_message: 'Disk dolu', ...over }, headers);
const hook = (over: Record<string, unknown>, key = cred.webhookKey) =>
  post(`${app.url}/webhook/receive`, { phone_number: '5321234567', error_message: 'Disk dolu', ...over }, { 'x-webhook-key': key });
const used = (accountId = cred.accountId): number => dir.cliJson(['credit', 'show', accountId]).used;
const call = (id: string) => dir.cliJson(['calls', 'show', id]);
const send = async (method: 'GET' | 'POST', path: string, headers: Record<string, string>) => {
  const r = await fetch(`${app.url}${path}`, { method, headers });
  return { status: r.status, json: (await r.json()) as any };
};
const owner = () => ({ 'x-api-key': cred.apiKey, 'x-api-secret': cred.apiSecret });

describe('dedupe', () => {
  it('the same key twice: one call, one credit; the second answer names the existing call, deduplicated', async () => {
    const key = uniqueKey('disk');
    const before = used();
    const first = await apiCall({ alert_key: key });
    expect(first).toMatchObject({ status: 200, json: { status: 'success', message: 'Call queued', deduplicated: false } });
    const second = await apiCall({ alert_key: key });
    expect(second.status).toBe(200);
    expect(second.json).toEqual({ status: 'success', message: 'Call queued', call_id: first.json.call_id, alert_id: first.json.alert_id, deduplicated: true, warning: 'No SIP trunk configured: calls wait' });
    expect(used()).toBe(before + 1);
    expect(call(first.json.call_id)).toMatchObject({ state: 'queued', alert_id: first.json.alert_id });
  });

  it('same key, a new number: only the new number is called; the webhook counts only new calls', async () => {
    const key = uniqueKey('cpu');
    const first = await hook({ phone_number: '5321111111', alert_key: key });
    expect(first.json).toMatchObject({ message: '1 call(s) queued', deduplicated_call_ids: [] });
    const before = used();
    const second = await hook({ phone_number: '5321111111, 5322222222', alert_key: key });
    expect(second.json).toEqual({
      status: 'success',
      message: '1 call(s) queued',
      call_ids: [expect.stringMatching(/^call_/)],
      deduplicated_call_ids: first.json.call_ids,
      alert_id: first.json.alert_id,
      warning: 'No SIP trunk configured: calls wait',
    });
    expect(call(second.json.call_ids[0])).toMatchObject({ phone_number: '5322222222', alert_id: first.json.alert_id });
    const third = await hook({ phone_number: '5321111111,5322222222', alert_key: key });
    expect(third.json).toMatchObject({ message: '0 call(s) queued', call_ids: [] });
    expect(used()).toBe(before + 1);
  });

  it('no key: two identical requests are two calls, answered exactly as before alerts', async () => {
    const before = used();
    const a = await apiCall();
    const b = await apiCall();
    // Exactly as before alerts, plus the no-trunk warning every answer of this suite carries.
    expect(a.json).toEqual({ status: 'success', message: 'Call queued', call_id: expect.stringMatching(/^call_/), warning: 'No SIP trunk configured: calls wait' });
    expect(b.json.call_id).not.toBe(a.json.call_id);
    expect(call(a.json.call_id).alert_id).not.toBe(call(b.json.call_id).alert_id);
    expect(used()).toBe(before + 2);
  });

  it('an acknowledged alert stands for the window; after it the same key calls again, as a new alert', async () => {
    const key = uniqueKey('link');
    const first = await apiCall({ alert_key: key });
    const ack = await send('POST', `/api/alerts/${first.json.alert_id}/acknowledge`, owner());
    expect(ack.json).toMatchObject({ status: 'success', message: 'Alert acknowledged', cancelled_call_ids: [first.json.call_id] });
    expect((await apiCall({ alert_key: key })).json).toMatchObject({ call_id: first.json.call_id, deduplicated: true });
    await new Promise((r) => setTimeout(r, WINDOW_S * 1000 + 100));
    const later = await apiCall({ alert_key: key });
    expect(later.json).toMatchObject({ message: 'Call queued', deduplicated: false });
    expect(later.json.call_id).not.toBe(first.json.call_id);
    expect(later.json.alert_id).not.toBe(first.json.alert_id);
  });

  it('an Idempotency-Key replays a deduplicated answer', async () => {
    const key = uniqueKey('idem');
    await apiCall({ alert_key: key });
    const a = await apiCall({ alert_key: key }, { 'idempotency-key': `evt-${key}` });
    const b = await apiCall({ alert_key: key }, { 'idempotency-key': `evt-${key}` });
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(b.json).toEqual(a.json);
  });

  it('an alert_key over 200 characters is 400 with its catalogue code', async () => {
    const r = await apiCall({ alert_key: 'k'.repeat(201) });
    expect(r).toMatchObject({ status: 400, json: { status: 'error', message: 'Alert key too long (max 200 characters)', code: 'alert_key_too_long' } });
    expect((await hook({ alert_key: 'k'.repeat(201) })).json.code).toBe('alert_key_too_long');
  });
});

describe('resolve', () => {
  it('queued calls end cancelled and the credit of never-dialled calls comes back; again, or an unknown key: an empty list', async () => {
    const key = uniqueKey('db');
    const before = used();
    const q = await hook({ phone_number: '5321111111,5322222222', alert_key: key });
    expect(used()).toBe(before + 2);
    const r = await apiCall({ status: 'resolved', alert_key: key, phone_number: undefined, error_message: undefined });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ status: 'success', message: 'Alert resolved', alert_id: q.json.alert_id });
    expect([...r.json.cancelled_call_ids].sort()).toEqual([...q.json.call_ids].sort());
    for (const id of q.json.call_ids) expect(call(id).state).toBe('cancelled');
    expect(used()).toBe(before);
    const again = await hook({ status: 'resolved', alert_key: key });
    expect(again).toMatchObject({ status: 200, json: { status: 'success', message: 'Alert resolved', cancelled_call_ids: [] } });
    expect(again.json.alert_id).toBeUndefined();
    const unknown = await post(`${app.url}/webhook/receive?key=${cred.webhookKey}`, form({ status: 'resolved', alert_key: 'never-sent' }), FORM);
    expect(unknown.json).toEqual({ status: 'success', message: 'Alert resolved', cancelled_call_ids: [] });
  });

  it('a resolve without a key is 400 "Missing fields"', async () => {
    const r = await hook({ status: 'resolved' });
    expect(r).toMatchObject({ status: 400, json: { status: 'error', message: 'Missing fields', code: 'missing_fields' } });
  });
});

describe('alert API', () => {
  it('GET /api/alerts/{id}: the alert and its calls; the webhook key is accepted here and on GET /api/calls/{id}', async () => {
    const key = uniqueKey('api');
    const q = await hook({ phone_number: '5321111111', alert_key: key, error_message: 'Çekirdek anahtar çöktü' });
    const byHookKey = { 'x-webhook-key': cred.webhookKey };
    const r = await send('GET', `/api/alerts/${q.json.alert_id}`, byHookKey);
    expect(r.status).toBe(200);
    expect(r.json.alert).toMatchObject({ id: q.json.alert_id, key, source: 'webhook', message: 'Çekirdek anahtar çöktü', state: 'open' });
    expect(r.json.alert.calls).toEqual([expect.objectContaining({ id: q.json.call_ids[0], state: 'queued', bundled_into: null })]);
    expect(await send('GET', `/api/alerts/${q.json.alert_id}`, owner())).toEqual(r);
    const c = await send('GET', `/api/calls/${q.json.call_ids[0]}`, byHookKey);
    expect(c).toMatchObject({ status: 200, json: { message: 'Call found', call: { alert_id: q.json.alert_id } } });
  });

  it('acknowledge through the API: acknowledged by api, waiting calls cancelled, credit back', async () => {
    const key = uniqueKey('ack');
    const before = used();
    const q = await hook({ phone_number: '5321111111,5322222222', alert_key: key });
    const r = await send('POST', `/api/alerts/${q.json.alert_id}/acknowledge`, { 'x-webhook-key': cred.webhookKey });
    expect(r.status).toBe(200);
    expect(r.json.alert).toMatchObject({ state: 'acknowledged', acknowledged_by: 'api' });
    expect(r.json.alert.calls.map((x: any) => x.state)).toEqual(['cancelled', 'cancelled']);
    expect(used()).toBe(before);
  });

  it("another account's alert is 404 like a missing one; every refusal carries its catalogue code", async () => {
    const q = await hook({ alert_key: uniqueKey('mine') });
    const theirs = { 'x-webhook-key': other.webhookKey };
    const notFound = { status: 404, json: { status: 'error', message: 'Alert not found', code: 'alert_not_found' } };
    expect(await send('GET', `/api/alerts/${q.json.alert_id}`, theirs)).toEqual(notFound);
    expect(await send('POST', `/api/alerts/${q.json.alert_id}/resolve`, theirs)).toEqual(notFound);
    expect(await send('GET', '/api/alerts/alt_missing', owner())).toEqual(notFound);
    expect((await send('GET', `/api/alerts/${q.json.alert_id}`, {})).json.code).toBe('missing_api_credentials');
    expect((await send('GET', `/api/alerts/${q.json.alert_id}`, { 'x-webhook-key': 'vwk_wrong' })).json).toEqual({
      status: 'error',
      message: 'Invalid webhook key',
      code: 'invalid_webhook_key',
    });
    expect((await send('GET', `/api/alerts/${q.json.alert_id}`, owner())).json.alert.state).toBe('open');
  });
});

describe('voice-alert alerts (CLI)', () => {
  it('list, show, ack and resolve print the API JSON; actions are recorded as by cli', async () => {
    const key = uniqueKey('cli');
    const q = await hook({ alert_key: key });
    const shown = dir.cliJson(['alerts', 'show', q.json.alert_id]);
    expect(shown).toEqual((await send('GET', `/api/alerts/${q.json.alert_id}`, owner())).json.alert);
    const listed = dir.cliJson(['alerts', 'list', '--account', cred.accountId, '--state', 'open', '--limit', '500']);
    expect(listed.map((a: any) => a.id)).toContain(q.json.alert_id);
    expect(listed.every((a: any) => a.state === 'open' && a.account_id === cred.accountId)).toBe(true);
    const acked = dir.cliJson(['alerts', 'ack', q.json.alert_id]);
    expect(acked).toMatchObject({ changed: true, cancelled_call_ids: q.json.call_ids, alert: { state: 'acknowledged', acknowledged_by: 'cli' } });
    expect(dir.cliJson(['alerts', 'resolve', q.json.alert_id])).toMatchObject({ changed: false, cancelled_call_ids: [], alert: { state: 'acknowledged' } });

    const q2 = await hook({ alert_key: uniqueKey('cli') });
    expect(dir.cliJson(['alerts', 'resolve', q2.json.alert_id])).toMatchObject({ changed: true, alert: { state: 'resolved' } });
    const missing = dir.cli(['alerts', 'show', 'alt_missing', '--json']);
    expect(missing.status).not.toBe(0);
    expect(missing.stdout).toBe('');
    expect(dir.cli(['alerts', 'list', '--state', 'gone', '--json']).status).not.toBe(0);
  });
});
