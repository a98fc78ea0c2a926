import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { httpTestApp } from '../../test/helpers/http-app';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { createSchedulesService } from '../schedules';
import type { Store } from '../store';

/**
 * GET /api/coverage (docs/on-call.md "Coverage"), through the real store and schedules
 * service: the rota of src/schedules/coverage.test.ts (Berlin, across the change to winter
 * time on 2026-10-25) with people stored, one of them verified, and an override by number.
 */
let clock: ReturnType<typeof manualClock>;
let store: Store;
let app: ReturnType<typeof httpTestApp>;

beforeEach(async () => {
  // Friday 2026-10-23 02:00 CEST.
  clock = manualClock('2026-10-23T00:00:00Z');
  store = await tempStore(clock);
  app = httpTestApp(store, clock);
});
afterEach(() => store.close());

const VERIFIED = Date.parse('2026-10-01T08:00:00Z');

async function rig() {
  const acc = await store.transaction((tx) => tx.accounts.create({ name: 't', plan: 'starter' }));
  const cred = await store.transaction((tx) => tx.credentials.create(acc.id));
  const person = (name: string, phones: { number: string; verifiedAt: number | null }[]) =>
    store.transaction((tx) => tx.people.create(acc.id, { name, phones, sms: [], emails: [], language: 'en', timeZone: null }, clock()));
  const ayse = await person('Ayşe', [{ number: '5321111111', verifiedAt: VERIFIED }]);
  const bora = await person('Bora', [{ number: '5322222222', verifiedAt: null }]);
  const schedules = createSchedulesService({ store, clock });
  const s = await schedules.create(acc.id, {
    name: 'noc',
    timeZone: 'Europe/Berlin',
    layers: [{ participants: [{ person: 'Ayşe' }, { person: 'bora' }], shift: '1d', start: '2026-10-23T09:00', restrictions: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat'], from: '00:00', to: '00:00' }] }],
  });
  if (!s.ok) throw new Error(s.code);
  expect((await schedules.addOverride(acc.id, 'noc', { from: '2026-10-26T10:00:00Z', to: '2026-10-26T12:00:00Z', number: '5323333333', name: 'Cem' })).ok).toBe(true);
  return { acc, cred, ayse, bora, schedule: s.schedule, auth: { 'x-api-key': cred.apiKey, 'x-api-secret': cred.apiSecret } };
}

const get = async (path: string, headers: Record<string, string>) => {
  const r = await app.handle(new Request(`http://localhost${path}`, { headers }));
  return { status: r.status, json: await r.json() };
};

describe('GET /api/coverage', () => {
  it("answers each schedule's shifts with each phone's verification, the gaps and the unverified people", async () => {
    const r = await rig();
    const ayse = { name: 'Ayşe', number: '5321111111', person: r.ayse.id, phones: [{ number: '5321111111', verified_at: '2026-10-01T08:00:00.000Z' }] };
    const bora = { name: 'Bora', number: '5322222222', person: r.bora.id, phones: [{ number: '5322222222', verified_at: null }] };
    expect(await get('/api/coverage?days=4', r.auth)).toEqual({
      status: 200,
      json: {
        status: 'success',
        message: 'Coverage',
        account_id: r.acc.id,
        from: '2026-10-23T00:00:00.000Z',
        to: '2026-10-27T00:00:00.000Z',
        days: 4,
        schedules: [
          {
            id: r.schedule.id,
            name: 'noc',
            time_zone: 'Europe/Berlin',
            shifts: [
              { start: '2026-10-23T07:00:00.000Z', end: '2026-10-24T07:00:00.000Z', ...ayse },
              { start: '2026-10-24T07:00:00.000Z', end: '2026-10-24T22:00:00.000Z', ...bora },
              { start: '2026-10-25T23:00:00.000Z', end: '2026-10-26T08:00:00.000Z', ...ayse },
              { start: '2026-10-26T08:00:00.000Z', end: '2026-10-26T10:00:00.000Z', ...bora },
              { start: '2026-10-26T10:00:00.000Z', end: '2026-10-26T12:00:00.000Z', name: 'Cem', number: '5323333333', person: null, phones: [{ number: '5323333333', verified_at: null }] },
              { start: '2026-10-26T12:00:00.000Z', end: '2026-10-27T08:00:00.000Z', ...bora },
            ],
            gaps: [
              { start: '2026-10-23T00:00:00.000Z', end: '2026-10-23T07:00:00.000Z', seconds: 25_200 },
              { start: '2026-10-24T22:00:00.000Z', end: '2026-10-25T23:00:00.000Z', seconds: 90_000 },
            ],
            gap_seconds: 115_200,
            unverified: [{ person: r.bora.id, name: 'Bora', phones: [{ number: '5322222222', verified_at: null }], from: '2026-10-24T07:00:00.000Z' }],
          },
        ],
      },
    });
  });

  it('looks 14 days ahead by default; a verification proved later empties `unverified`', async () => {
    const r = await rig();
    const before = await get('/api/coverage', r.auth);
    expect(before.json).toMatchObject({ days: 14, to: '2026-11-06T00:00:00.000Z' });
    expect(before.json.schedules[0].unverified.map((u: { name: string }) => u.name)).toEqual(['Bora']);
    await store.transaction((tx) => tx.people.update(r.bora.id, { ...r.bora, phones: [{ number: '5322222222', verifiedAt: clock() }] }, clock()));
    expect((await get('/api/coverage', r.auth)).json.schedules[0].unverified).toEqual([]);
  });

  it('refuses a bad ?days, the webhook key and no credentials; another account sees only its own schedules', async () => {
    const r = await rig();
    for (const days of ['0', '91', 'x', '1.5']) {
      expect(await get(`/api/coverage?days=${days}`, r.auth)).toEqual({ status: 400, json: { status: 'error', message: 'Malformed request: days must be a whole number from 1 to 90', code: 'malformed_request' } });
    }
    expect((await get('/api/coverage', { 'x-webhook-key': r.cred.webhookKey })).status).toBe(401);
    expect((await get('/api/coverage', {})).status).toBe(401);
    const other = await store.transaction((tx) => tx.accounts.create({ name: 'o', plan: 'starter' }));
    const cred = await store.transaction((tx) => tx.credentials.create(other.id));
    expect((await get('/api/coverage', { 'x-api-key': cred.apiKey, 'x-api-secret': cred.apiSecret })).json).toMatchObject({ account_id: other.id, schedules: [] });
  });
});
