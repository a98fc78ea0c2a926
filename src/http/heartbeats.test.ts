import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { httpTestApp } from '../../test/helpers/http-app';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { createHeartbeatChecker, createHeartbeatService } from '../heartbeats';
import { silentLogger } from '../log';
import type { Store } from '../store';

// docs/on-call.md "Heartbeats" over HTTP: the ping URL (GET, HEAD, POST with any body) and GET
// /api/heartbeats.
const TZ = 'Europe/Istanbul';
let clock: ReturnType<typeof manualClock>;
let store: Store;
let app: ReturnType<typeof httpTestApp>;

beforeEach(async () => {
  clock = manualClock();
  store = await tempStore(clock);
  app = httpTestApp(store, clock, { intake: { timeZone: TZ } });
});
afterEach(() => store.close());

async function account() {
  const acc = await store.transaction((tx) => tx.accounts.create({ name: 't', plan: 'starter' }));
  const cred = await store.transaction((tx) => tx.credentials.create(acc.id));
  return { ...cred, id: acc.id };
}

async function heartbeat(accountId: string, name: string, interval_s = 300, grace_s = 60) {
  const r = await createHeartbeatService({ store, clock, timeZone: TZ }).create(accountId, { name, interval_s, grace_s, to: ['5321111111'] });
  if (!r.ok) throw new Error(JSON.stringify(r));
  return r;
}

const call = (method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}) =>
  app.handle(new Request(`http://localhost${path}`, { method, headers: init.headers, body: init.body }));
const listWith = async (headers: Record<string, string>) => {
  const r = await call('GET', '/api/heartbeats', { headers });
  return { status: r.status, json: (await r.json()) as { heartbeats: { name: string; state: string; last_ping_at: string | null }[] } & Record<string, unknown> };
};

const RECEIVED = { status: 'success', message: 'Heartbeat received' };
// What Alertmanager's webhook receiver POSTs for its always-firing Watchdog alert (docs: webhook_config).
const WATCHDOG = JSON.stringify({
  version: '4',
  status: 'firing',
  receiver: 'heartbeat',
  alerts: [{ status: 'firing', labels: { alertname: 'Watchdog', severity: 'none' }, annotations: {}, startsAt: '2026-11-15T11:00:00Z' }],
});

describe('ping URL', () => {
  it.each([
    ['GET', {}],
    ['POST', { headers: { 'content-type': 'application/json' }, body: WATCHDOG }],
    ['POST', { headers: { 'content-type': 'text/plain' }, body: 'anything at all' }],
    ['POST', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1&b' }],
    ['POST', { headers: { 'content-type': 'application/json' }, body: '{not json' }],
    ['POST', {}],
  ] as const)('%s %j answers 200 Heartbeat received and the heartbeat is up', async (method, init) => {
    const acc = await account();
    const hb = await heartbeat(acc.id, 'cron');
    const r = await call(method, hb.pingUrl, init);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual(RECEIVED);
    expect((await store.heartbeats.find(acc.id, 'cron'))!.state).toBe('up');
  });

  it('HEAD answers 200 with no body and counts as a ping', async () => {
    const acc = await account();
    const hb = await heartbeat(acc.id, 'head');
    const r = await call('HEAD', hb.pingUrl);
    expect(r.status).toBe(200);
    expect(await r.text()).toBe('');
    expect((await store.heartbeats.find(acc.id, 'head'))!.lastPingAt).not.toBeNull();
  });

  it.each(['GET', 'HEAD', 'POST'])('%s with an unknown token is 404 Heartbeat not found', async (method) => {
    const acc = await account();
    await heartbeat(acc.id, 'cron');
    for (const token of ['A'.repeat(32), 'short', 'a-b.c']) {
      const r = await call(method, `/heartbeat/${token}`);
      expect(r.status).toBe(404);
      if (method !== 'HEAD') expect(await r.json()).toEqual({ status: 'error', message: 'Heartbeat not found', code: 'heartbeat_not_found' });
    }
  });

  it('a ping of a late heartbeat resolves its alert and cancels the waiting call; the API shows it up again', async () => {
    const acc = await account();
    const hb = await heartbeat(acc.id, 'nightly', 1, 0);
    const checker = createHeartbeatChecker({ store, clock, log: silentLogger(), node: 'n', leaseMs: 30_000, language: 'en', timeZone: TZ });
    await checker.startUp();
    expect((await call('GET', hb.pingUrl)).status).toBe(200);
    // The lease clock: this clock on SQLite, the database's own on PostgreSQL (real time).
    if (store.dialect === 'postgres') await Bun.sleep(1100);
    else clock.advance(1000);
    await checker.tick();
    await checker.end();
    const listed = await listWith({ 'x-webhook-key': acc.webhookKey });
    expect(listed.json.heartbeats.map((h) => h.state)).toEqual(['late']);
    const alert = (await store.alerts.findOpen(acc.id, `heartbeat:${hb.heartbeat.id}`))!;
    expect(alert.message).toBe('Heartbeat nightly missed. Last signal 0 minutes ago.');
    const [queued] = await store.calls.ofAlert(alert.id);
    expect(queued!.state).toBe('queued');

    const r = await call('POST', hb.pingUrl, { headers: { 'content-type': 'application/json' }, body: WATCHDOG });
    expect(await r.json()).toEqual(RECEIVED);
    expect((await store.alerts.get(alert.id))!.state).toBe('resolved');
    expect((await store.calls.get(queued!.id))!.state).toBe('cancelled');
    expect((await listWith({ 'x-webhook-key': acc.webhookKey })).json.heartbeats.map((h) => h.state)).toEqual(['up']);
  });
});

describe('GET /api/heartbeats', () => {
  it('lists the account\'s heartbeats with state and last_ping_at, with API key and secret or the webhook key', async () => {
    const acc = await account();
    const other = await account();
    await heartbeat(other.id, 'theirs');
    const a = await heartbeat(acc.id, 'a-new');
    const b = await heartbeat(acc.id, 'b-up');
    await heartbeat(acc.id, 'c-paused');
    await createHeartbeatService({ store, clock, timeZone: TZ }).pause(acc.id, 'c-paused');
    await call('GET', b.pingUrl);

    const ways: Record<string, string>[] = [{ 'x-api-key': acc.apiKey, 'x-api-secret': acc.apiSecret }, { 'x-webhook-key': acc.webhookKey }];
    for (const headers of ways) {
      const r = await listWith(headers);
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ status: 'success', message: 'Heartbeats found' });
      expect(r.json.heartbeats.map((h) => [h.name, h.state, h.last_ping_at === null])).toEqual([
        ['a-new', 'new', true],
        ['b-up', 'up', false],
        ['c-paused', 'paused', true],
      ]);
      expect(JSON.stringify(r.json)).not.toContain(a.token);
    }
  });

  it('refuses a request without credentials (401) and with wrong ones (403)', async () => {
    await account();
    expect((await listWith({})).status).toBe(401);
    expect((await listWith({ 'x-webhook-key': 'vwk_wrong' })).status).toBe(403);
  });
});
