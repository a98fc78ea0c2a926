import ical, { type VEvent } from 'node-ical';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { httpTestApp } from '../../test/helpers/http-app';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { createSchedulesService } from '../schedules';
import type { Store } from '../store';

// docs/on-call.md "On-call schedules": GET /api/schedules/{name}/oncall and the calendar feed.
let clock: ReturnType<typeof manualClock>;
let store: Store;
let app: ReturnType<typeof httpTestApp>;

beforeEach(async () => {
  clock = manualClock('2026-11-15T12:00:00Z');
  store = await tempStore(clock);
  app = httpTestApp(store, clock);
});
afterEach(() => store.close());

const LAYERS = [
  { participants: [{ name: 'Ayşe', number: '5321111111' }, { name: 'Bora', number: '5322222222' }], shift: '7d', start: '2026-11-02T09:00' },
  { participants: [{ name: 'Cem', number: '5323333333' }], shift: '1d', start: '2026-11-02T00:00', restrictions: [{ days: ['sat', 'sun'], from: '10:00', to: '16:00' }] },
];

async function accountWithSchedule(timeZone = 'Europe/Istanbul') {
  const acc = await store.transaction((tx) => tx.accounts.create({ name: 't', plan: 'starter' }));
  const cred = await store.transaction((tx) => tx.credentials.create(acc.id));
  const schedules = createSchedulesService({ store, clock });
  const r = await schedules.create(acc.id, { name: 'noc', timeZone, layers: LAYERS });
  if (!r.ok) throw new Error(JSON.stringify(r));
  return { accountId: acc.id, apiKey: cred.apiKey, apiSecret: cred.apiSecret, webhookKey: cred.webhookKey, schedule: r.schedule, schedules };
}

const get = (path: string, headers: Record<string, string> = {}) => app.handle(new Request(`http://localhost${path}`, { headers }));
const json = async (r: Response) => ({ status: r.status, json: await r.json() });

describe('GET /api/schedules/:name/oncall', () => {
  it('answers who is on call now or at ?at=, with the API secret or the webhook key', async () => {
    const a = await accountWithSchedule();
    // Sunday 2026-11-15 15:00 +03: the weekend layer (Cem) until 16:00 local.
    expect(await json(await get('/api/schedules/noc/oncall', { 'x-api-key': a.apiKey, 'x-api-secret': a.apiSecret }))).toEqual({
      status: 200,
      json: { status: 'success', message: 'On call', name: 'Cem', number: '5323333333', until: '2026-11-15T13:00:00.000Z' },
    });
    expect(await json(await get('/api/schedules/noc/oncall?at=2026-11-16T09:00:00%2B03:00', { 'x-webhook-key': a.webhookKey }))).toEqual({
      status: 200,
      // Ayşe's week, until the weekend layer takes Saturday 10:00 local.
      json: { status: 'success', message: 'On call', name: 'Ayşe', number: '5321111111', until: '2026-11-21T07:00:00.000Z' },
    });
  });

  it('refuses no credentials (401), another account\'s or a missing schedule (404), a bad ?at= (400)', async () => {
    const a = await accountWithSchedule();
    const other = await store.transaction((tx) => tx.accounts.create({ name: 'o', plan: 'starter' }));
    const otherCred = await store.transaction((tx) => tx.credentials.create(other.id));
    expect((await get('/api/schedules/noc/oncall')).status).toBe(401);
    expect(await json(await get('/api/schedules/noc/oncall', { 'x-webhook-key': otherCred.webhookKey }))).toEqual({
      status: 404,
      json: { status: 'error', message: 'Schedule not found', code: 'schedule_not_found' },
    });
    expect((await get('/api/schedules/nope/oncall', { 'x-webhook-key': a.webhookKey })).status).toBe(404);
    const bad = await json(await get('/api/schedules/noc/oncall?at=yesterday', { 'x-webhook-key': a.webhookKey }));
    expect(bad).toMatchObject({ status: 400, json: { code: 'malformed_request' } });
  });
});

describe('GET /schedules/<token>.ics', () => {
  it('is the next 60 days of shifts, one VEVENT each, as an independent parser (node-ical) reads them', async () => {
    const a = await accountWithSchedule('America/New_York');
    await a.schedules.addOverride(a.accountId, 'noc', { from: '2026-11-20T00:00:00Z', to: '2026-11-21T00:00:00Z', number: '5324444444', name: 'Deniz' });
    const r = await get(`/schedules/${a.schedule.icsToken}.ics`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/calendar/);
    const parsed = ical.sync.parseICS(await r.text());
    const events = Object.values(parsed)
      .filter((e): e is VEvent => e?.type === 'VEVENT')
      .map((e) => ({ start: new Date(e.start).getTime(), end: new Date(e.end!).getTime(), summary: String(e.summary) }))
      .sort((x, y) => x.start - y.start);
    const now = clock();
    const expected = (await a.schedules.shifts(a.schedule, now, now + 60 * 86_400_000)).map((s) => ({ start: s.start, end: s.end, summary: `On call: ${s.name}` }));
    expect(events).toEqual(expected);
    // It covers 60 days: weekly hand-offs at 09:00 New York time (14:00Z in winter), weekend
    // afternoons (10:00–16:00 local) and the override among them; Bora's week from 11-23.
    expect(events.length).toBeGreaterThan(20);
    expect(events[events.length - 1]!.end).toBeGreaterThanOrEqual(now + 60 * 86_400_000);
    expect(events).toContainEqual({ start: Date.parse('2026-11-20T00:00:00Z'), end: Date.parse('2026-11-21T00:00:00Z'), summary: 'On call: Deniz' });
    expect(events).toContainEqual({ start: Date.parse('2026-11-23T14:00:00Z'), end: Date.parse('2026-11-28T15:00:00Z'), summary: 'On call: Bora' });
  });

  it('across the spring DST change in New York: the hand-offs stay at their local hours, as an independent parser reads them', async () => {
    // 2027-03-14 02:00 local the clocks go forward (EST -5 → EDT -4). Written out by hand, not
    // from our timeline: the weekend block (10:00–16:00 local) is 15:00–21:00Z on Saturday the
    // 13th and 14:00–20:00Z on Sunday the 14th; Monday's 09:00 hand-off (Ayşe's 18th week from
    // 2026-11-02 ends, Bora's begins) is 13:00Z, where it was 14:00Z the Monday before.
    clock.set('2027-02-20T12:00:00Z');
    const a = await accountWithSchedule('America/New_York');
    const parsed = ical.sync.parseICS(await (await get(`/schedules/${a.schedule.icsToken}.ics`)).text());
    const events = Object.values(parsed)
      .filter((e): e is VEvent => e?.type === 'VEVENT')
      .map((e) => ({ start: new Date(e.start).toISOString(), end: new Date(e.end!).toISOString(), summary: String(e.summary) }));
    expect(events).toContainEqual({ start: '2027-03-08T14:00:00.000Z', end: '2027-03-13T15:00:00.000Z', summary: 'On call: Ayşe' });
    expect(events).toContainEqual({ start: '2027-03-13T15:00:00.000Z', end: '2027-03-13T21:00:00.000Z', summary: 'On call: Cem' });
    expect(events).toContainEqual({ start: '2027-03-14T14:00:00.000Z', end: '2027-03-14T20:00:00.000Z', summary: 'On call: Cem' });
    expect(events).toContainEqual({ start: '2027-03-14T20:00:00.000Z', end: '2027-03-15T13:00:00.000Z', summary: 'On call: Ayşe' });
    expect(events).toContainEqual({ start: '2027-03-15T13:00:00.000Z', end: '2027-03-20T14:00:00.000Z', summary: 'On call: Bora' });
  });

  it('an unknown token is 404', async () => {
    await accountWithSchedule();
    expect((await get('/schedules/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.ics')).status).toBe(404);
    expect((await get('/schedules/short.ics')).status).toBe(404);
  });
});

describe('PUT /api/schedules/:name, DELETE /api/schedules/:name/overrides/:id', () => {
  const send = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
    app.handle(new Request(`http://localhost${path}`, { method, headers: { ...headers, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }));

  it('handoff_call turns hand-off calls on and off (docs/on-call.md "Hand-off calls"); anything but a boolean is refused', async () => {
    const a = await accountWithSchedule();
    const key = { 'x-api-key': a.apiKey, 'x-api-secret': a.apiSecret };
    expect(a.schedule.handoffCall).toBe(false);
    const on = await json(await send('PUT', '/api/schedules/noc', key, { handoff_call: true }));
    expect(on).toMatchObject({ status: 200, json: { schedule: { id: a.schedule.id, handoff_call: true, layers: a.schedule.layers } } });
    expect((await store.schedules.get(a.schedule.id))!.handoffCall).toBe(true);
    // Not given: kept.
    expect((await json(await send('PUT', '/api/schedules/noc', key, { time_zone: 'Europe/Istanbul' }))).json.schedule.handoff_call).toBe(true);
    const bad = await json(await send('PUT', '/api/schedules/noc', key, { handoff_call: 'yes' }));
    expect(bad).toEqual({ status: 400, json: { status: 'error', message: 'Invalid schedule: handoff_call: true or false', code: 'invalid_schedule' } });
    expect((await json(await send('PUT', '/api/schedules/noc', key, { handoff_call: false }))).json.schedule.handoff_call).toBe(false);
  });

  it('changes the layers in place (same id, feed URL, overrides) and removes an override, with the API key only', async () => {
    const a = await accountWithSchedule();
    const key = { 'x-api-key': a.apiKey, 'x-api-secret': a.apiSecret };
    const o = await a.schedules.addOverride(a.accountId, 'noc', { from: '2026-11-20T15:00:00Z', to: '2026-11-20T20:00:00Z', number: '5324444444' });
    if (!o.ok) throw new Error(o.code);
    // The webhook key monitoring tools hold cannot change schedules.
    expect((await send('PUT', '/api/schedules/noc', { 'x-webhook-key': a.webhookKey }, { layers: LAYERS.slice(1) })).status).toBe(401);
    const put = await json(await send('PUT', '/api/schedules/noc', key, { layers: LAYERS.slice(0, 1) }));
    expect(put).toMatchObject({ status: 200, json: { status: 'success', message: 'Schedule updated', schedule: { id: a.schedule.id, name: 'noc', time_zone: 'Europe/Istanbul' } } });
    expect(put.json.schedule.ics_url).toContain(a.schedule.icsToken);
    expect(put.json.schedule.layers).toHaveLength(1);
    expect((await store.schedules.overrides(a.schedule.id, 0)).map((x) => x.id)).toEqual([o.override.id]);
    // Sunday 15:00 +03 with the weekend layer gone: Bora's week.
    expect((await json(await get('/api/schedules/noc/oncall', { 'x-webhook-key': a.webhookKey }))).json.name).toBe('Bora');

    const bad = await json(await send('PUT', '/api/schedules/noc', key, { layers: [{ ...LAYERS[0], shift: '7w' }] }));
    expect(bad).toEqual({ status: 400, json: { status: 'error', message: 'Invalid schedule: layers.0.shift: Nd or Nh, e.g. 7d or 12h', code: 'invalid_schedule' } });
    expect((await send('PUT', '/api/schedules/nope', key, { layers: LAYERS })).status).toBe(404);

    const del = await json(await send('DELETE', `/api/schedules/noc/overrides/${o.override.id}`, key));
    expect(del).toMatchObject({ status: 200, json: { status: 'success', message: 'Override removed', override: { id: o.override.id, number: '5324444444' } } });
    expect(await store.schedules.overrides(a.schedule.id, 0)).toEqual([]);
    expect(await json(await send('DELETE', `/api/schedules/noc/overrides/${o.override.id}`, key))).toEqual({
      status: 404,
      json: { status: 'error', message: 'Override not found', code: 'override_not_found' },
    });
  });

  it('a rename is 409 with used_by while a policy names the schedule', async () => {
    const a = await accountWithSchedule();
    const key = { 'x-api-key': a.apiKey, 'x-api-secret': a.apiSecret };
    const { createPoliciesService } = await import('../escalation');
    await createPoliciesService({ store, clock }).create(a.accountId, { name: 'oncall', steps: [{ numbers: [], schedules: ['noc'] }] });
    const r = await json(await send('PUT', '/api/schedules/noc', key, { name: 'noc2' }));
    expect(r).toMatchObject({ status: 409, json: { code: 'schedule_in_use', used_by: [{ kind: 'policy', name: 'oncall' }] } });
    expect(await store.schedules.find(a.accountId, 'noc')).not.toBeNull();
  });
});
