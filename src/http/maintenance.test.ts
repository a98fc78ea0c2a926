import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { httpTestApp } from '../../test/helpers/http-app';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { periodOf } from '../credit';
import { sign } from '../signing';
import type { Store } from '../store';

// docs/on-call.md "Maintenance windows": the API, and the answers of both alert endpoints under a
// window.
let clock: ReturnType<typeof manualClock>;
let store: Store;
let app: ReturnType<typeof httpTestApp>;
let cred: { accountId: string; apiKey: string; apiSecret: string; webhookKey: string };

beforeEach(async () => {
  clock = manualClock(Date.now());
  store = await tempStore(clock);
  app = httpTestApp(store, clock);
  cred = await account();
});
afterEach(() => store.close());

async function account() {
  const acc = await store.transaction((tx) => tx.accounts.create({ name: 't', plan: 'starter' }));
  const k = await store.transaction((tx) => tx.credentials.create(acc.id));
  return { accountId: acc.id, apiKey: k.apiKey, apiSecret: k.apiSecret, webhookKey: k.webhookKey };
}

const iso = (ms: number) => new Date(ms).toISOString();
const keys = (c = cred) => ({ 'x-api-key': c.apiKey, 'x-api-secret': c.apiSecret });
async function send(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const init: RequestInit = { method, headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) } };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  const r = await app.handle(new Request(`http://localhost${path}`, init));
  return { status: r.status, json: (await r.json()) as any };
}
const create = (body: unknown, headers: Record<string, string> = keys()) => send('POST', '/api/maintenance', headers, body);
const used = () => store.usage.usedIn(cred.accountId, periodOf(clock(), 'Europe/Istanbul'));

describe('POST /api/maintenance', () => {
  it('creates a window and answers it; GET lists and shows it; DELETE ends it', async () => {
    const start = iso(clock() + 3_600_000);
    const end = iso(clock() + 7_200_000);
    const r = await create({ start, end, reason: 'db upgrade', match: ['key=db-', 'label:env=staging'] });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      status: 'success',
      message: 'Maintenance window created',
      window: {
        id: expect.stringMatching(/^mw_/),
        account_id: cred.accountId,
        start,
        end,
        reason: 'db upgrade',
        match: ['key=db-', 'label:env=staging'],
        state: 'scheduled',
        created_at: iso(clock()),
        started_at: null,
      },
      cancelled_call_ids: [],
    });
    const id = r.json.window.id;
    expect(await send('GET', '/api/maintenance', keys())).toEqual({ status: 200, json: { status: 'success', message: 'Maintenance windows', windows: [r.json.window] } });
    expect(await send('GET', `/api/maintenance/${id}`, keys())).toEqual({ status: 200, json: { status: 'success', message: 'Maintenance window found', window: r.json.window } });
    expect((await send('DELETE', `/api/maintenance/${id}`, keys())).json).toMatchObject({ status: 'success', message: 'Maintenance window deleted', window: { id } });
    expect(await send('GET', `/api/maintenance/${id}`, keys())).toEqual({
      status: 404,
      json: { status: 'error', message: 'Maintenance window not found', code: 'maintenance_not_found' },
    });
  });

  it('refuses bad input with catalogue errors', async () => {
    const now = clock();
    expect((await create({ start: 'soon', end: iso(now + 60_000) })).json).toEqual({
      status: 'error',
      message: 'Invalid time (ISO 8601 with a zone, e.g. 2026-11-25T22:00:00Z): start "soon"',
      code: 'maintenance_bad_time',
    });
    expect(await create({ start: iso(now + 120_000), end: iso(now + 60_000) })).toEqual({
      status: 400,
      json: { status: 'error', message: 'Maintenance window must end after it starts', code: 'maintenance_end_before_start' },
    });
    expect((await create({ start: iso(now), end: iso(now + 60_000), match: ['env=staging'] })).json).toEqual({
      status: 'error',
      message: 'Invalid match (key=PREFIX, source=NAME or label:NAME=VALUE): "env=staging"',
      code: 'maintenance_bad_match',
    });
    expect((await create({ end: iso(now + 60_000) })).json).toMatchObject({ code: 'maintenance_invalid' });
    expect((await create('{not json')).json).toMatchObject({ status: 'error', code: 'malformed_request' });
  });

  it('takes the API key (secret or signature over the body), not the webhook key; another account sees 404', async () => {
    const body = JSON.stringify({ start: iso(clock()), end: iso(clock() + 60_000) });
    expect((await create(body, { 'x-webhook-key': cred.webhookKey })).status).toBe(401);
    expect((await create(body, {})).json).toMatchObject({ code: 'missing_api_credentials' });
    expect((await create(body, { 'x-api-key': cred.apiKey, 'x-api-secret': 'wrong' })).status).toBe(403);
    const ts = String(Math.floor(clock() / 1000));
    const signed = await create(body, { 'x-api-key': cred.apiKey, 'x-timestamp': ts, 'x-signature': sign(cred.apiSecret, ts, new TextEncoder().encode(body)) });
    expect(signed.status).toBe(200);
    const other = await account();
    expect((await send('GET', `/api/maintenance/${signed.json.window.id}`, keys(other))).status).toBe(404);
    expect((await send('DELETE', `/api/maintenance/${signed.json.window.id}`, keys(other))).status).toBe(404);
    expect((await send('GET', '/api/maintenance', keys(other))).json.windows).toEqual([]);
  });
});

describe('alert endpoints under a window', () => {
  it('/api/call: 200 Call queued with "suppressed", no call, no charge; /webhook/receive: 0 call(s) queued', async () => {
    const w = await create({ start: iso(clock() - 1000), end: iso(clock() + 3_600_000) });
    const id = w.json.window.id;
    const api = await send('POST', '/api/call', {}, { api_key: cred.apiKey, api_secret: cred.apiSecret, phone_number: '5321234567', error_message: 'Disk dolu', alert_key: 'db-1' });
    expect(api).toEqual({
      status: 200,
      json: { status: 'success', message: 'Call queued', call_id: null, alert_id: expect.stringMatching(/^alt_/), deduplicated: false, suppressed: id },
    });
    const hook = await send('POST', `/webhook/receive?key=${cred.webhookKey}`, {}, { phone_number: '5321111111,5322222222', error_message: 'Disk dolu' });
    expect(hook).toEqual({ status: 200, json: { status: 'success', message: '0 call(s) queued', call_ids: [], alert_id: expect.stringMatching(/^alt_/), suppressed: id } });
    expect(await used()).toBe(0);
    expect(await store.calls.list({ accountId: cred.accountId })).toEqual([]);
    // The alert shows it was suppressed, and by which window.
    const alert = await send('GET', `/api/alerts/${api.json.alert_id}`, keys());
    expect(alert.json.alert).toMatchObject({ state: 'open', suppressed_by: id, suppressed_until: w.json.window.end, calls: [] });
  });
});
