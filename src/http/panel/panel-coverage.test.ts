import { describe, expect, test } from 'vitest';
import { manualClock } from '../../../test/helpers/memory-store';
import { browser, panelApp } from '../../../test/helpers/panel-app';
import { createCoverageGauges, createSchedulesService } from '../../schedules';

// docs/on-call.md "Coverage": the panel's coverage page per account, its nav entry, and the
// overview's link to it when a schedule has a gap or someone on call with no verified phone.
const PW = 'a-long-password-1';

async function setup() {
  // Friday 2026-10-23 02:00 CEST: Berlin goes back to winter time on Sunday.
  const clock = manualClock('2026-10-23T00:00:00Z');
  const ctx = await panelApp({}, clock);
  await ctx.users.createAdmin('admin', PW);
  const a = await ctx.store.transaction((tx) => tx.accounts.create({ name: 'Acme', plan: 'starter' }));
  const b = await ctx.store.transaction((tx) => tx.accounts.create({ name: 'Other', plan: 'starter' }));
  await ctx.users.createOwner(a.id, 'a@acme.test', PW);
  await ctx.users.createOwner(b.id, 'b@other.test', PW);
  const person = (accountId: string, name: string, verifiedAt: number | null) =>
    ctx.store.transaction((tx) => tx.people.create(accountId, { name, phones: [{ number: '5321111111', verifiedAt }], sms: [], emails: [], language: 'tr', timeZone: null }, clock()));
  await person(a.id, 'Ayşe', Date.parse('2026-10-01T08:00:00Z'));
  await person(a.id, 'Bora', null);
  await person(b.id, 'Cem', Date.parse('2026-10-01T08:00:00Z'));
  const schedules = createSchedulesService({ store: ctx.store, clock });
  const weekdaysAndSat = { days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as ('mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat')[], from: '00:00', to: '00:00' };
  expect((await schedules.create(a.id, { name: 'noc', timeZone: 'Europe/Berlin', layers: [{ participants: [{ person: 'Ayşe' }, { person: 'Bora' }], shift: '1d', start: '2026-10-23T09:00', restrictions: [weekdaysAndSat] }] })).ok).toBe(true);
  expect((await schedules.create(b.id, { name: 'ops', timeZone: 'UTC', layers: [{ participants: [{ person: 'Cem' }], shift: '7d', start: '2026-10-01T00:00' }] })).ok).toBe(true);
  // The appliance's engine loop, as appliance.ts wires it into the HTTP deps.
  const gauges = createCoverageGauges({ store: ctx.store, clock });
  ctx.deps.coverage = () => gauges.readings();
  const owner = browser(ctx.app);
  await owner.login('a@acme.test', PW);
  const other = browser(ctx.app);
  await other.login('b@other.test', PW);
  const admin = browser(ctx.app);
  await admin.login('admin', PW);
  return { ...ctx, a, b, owner, other, admin, gauges };
}

describe('panel: coverage', () => {
  test('lists each shift with phones and their verification, the gaps in local time and the unverified people; ?days= narrows it', async () => {
    const { a, owner } = await setup();
    const page = `/panel/a/${a.id}/coverage`;
    const r = await owner.get(`${page}?days=4`);
    expect(r.status).toBe(200);
    const html = await r.text();
    expect(html).toContain(`href="/panel/a/${a.id}/coverage" aria-current="page"`);
    expect(html).toContain('data-schedule="noc"');
    // Before the rota starts (Fri 02:00–09:00 CEST) and the whole Sunday (25 real hours).
    expect([...html.matchAll(/data-gap="([^"]+)"/g)].map((m) => m[1])).toEqual(['2026-10-23T00:00:00.000Z', '2026-10-24T22:00:00.000Z']);
    expect(html).toContain(`data-gap-seconds="${32 * 3600}"`);
    expect(html).toContain('25 sa');
    expect([...html.matchAll(/data-unverified="([^"]+)"/g)].map((m) => m[1])).toEqual(['Bora']);
    expect([...html.matchAll(/<tr data-start="([^"]+)"/g)].map((m) => m[1])).toEqual([
      '2026-10-23T07:00:00.000Z',
      '2026-10-24T07:00:00.000Z',
      '2026-10-25T23:00:00.000Z',
      '2026-10-26T08:00:00.000Z',
    ]);
    expect(html).toContain('data-verified="yes"');
    expect(html).toContain('data-verified="no"');
    // The default window is 14 days; a value it cannot take is the default.
    expect(await (await owner.get(`${page}?days=500`)).text()).toContain('value="14"');
  });

  test("another account's coverage page is not the owner's; an account with nothing wrong says so", async () => {
    const { a, b, owner, other } = await setup();
    expect((await owner.get(`/panel/a/${b.id}/coverage`)).status).not.toBe(200);
    const html = await (await other.get(`/panel/a/${b.id}/coverage`)).text();
    expect(html).toContain('data-testid="all-good"');
    expect(html).not.toContain('data-schedule="noc"');
    expect((await other.get(`/panel/a/${a.id}/coverage`)).status).not.toBe(200);
  });

  test('the overview links to the coverage page when a schedule has a gap or an unverified person, from the engine’s last look', async () => {
    const { a, owner, other, admin, gauges } = await setup();
    // Before the loop's first look there is nothing to say.
    expect(await (await owner.get('/panel/overview')).text()).not.toContain('data-testid="coverage-warnings"');
    await gauges.tick();
    const html = await (await owner.get('/panel/overview')).text();
    expect(html).toContain('data-testid="coverage-warnings"');
    expect(html).toContain(`<a href="/panel/a/${a.id}/coverage">noc</a>`);
    // 14 days from Friday: 7 h before the rota starts and two Sundays (25 h and 24 h).
    expect(html).toContain('56 sa boyunca kimse nöbette değil');
    expect(html).toContain('doğrulanmış telefonu olmayan 1 nöbetçi');
    // Nothing wrong in the other account: no warning there; the administrator sees every account's.
    expect(await (await other.get('/panel/overview')).text()).not.toContain('data-testid="coverage-warnings"');
    expect(await (await admin.get('/panel/overview')).text()).toContain('Acme · noc');
  });
});
