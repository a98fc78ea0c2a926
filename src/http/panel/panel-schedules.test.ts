import { describe, expect, test } from 'vitest';
import { manualClock } from '../../../test/helpers/memory-store';
import { browser, panelApp } from '../../../test/helpers/panel-app';
import { createPoliciesService } from '../../escalation';
import { createSchedulesService } from '../../schedules';

// docs/on-call.md "On-call schedules": the panel's schedules page and the overview's on-call part.
const PW = 'a-long-password-1';
const LAYERS = [{ participants: [{ name: 'Ayşe', number: '5321111111' }, { name: 'Bora', number: '5322222222' }], shift: '1d', start: '2026-11-15T09:00' }];

async function setup() {
  // Sunday 2026-11-15 12:00 in Istanbul: Ayşe until 09:00 tomorrow.
  const clock = manualClock('2026-11-15T09:00:00Z');
  const ctx = await panelApp({ language: 'en' }, clock);
  await ctx.users.createAdmin('admin', PW);
  const a = await ctx.store.transaction((tx) => tx.accounts.create({ name: 'Acme', plan: 'starter' }));
  const b = await ctx.store.transaction((tx) => tx.accounts.create({ name: 'Other', plan: 'starter' }));
  await ctx.users.createOwner(a.id, 'a@acme.test', PW);
  const schedules = createSchedulesService({ store: ctx.store, clock });
  const mine = await schedules.create(a.id, { name: 'noc', timeZone: 'Europe/Istanbul', layers: LAYERS });
  const theirs = await schedules.create(b.id, { name: 'theirs', timeZone: 'UTC', layers: LAYERS });
  if (!mine.ok || !theirs.ok) throw new Error('schedules');
  const owner = browser(ctx.app);
  await owner.login('a@acme.test', PW);
  const admin = browser(ctx.app);
  await admin.login('admin', PW);
  return { ...ctx, clock, a, b, owner, admin, schedules, mine: mine.schedule, theirs: theirs.schedule, page: `/panel/a/${a.id}/schedules` };
}

describe('panel: schedules', () => {
  test('shows who is on call, the next 14 days as the service computes them, the calendar URL; an owner adds an override in local time', async () => {
    const { owner, page, mine, schedules, clock, store } = await setup();
    const html = await (await owner.get(page)).text();
    expect(html).toContain('data-schedule="noc"');
    expect(html).not.toContain('theirs');
    expect(/data-testid="oncall-now"[^>]*><span>Ayşe 5321111111<\/span>/.test(html)).toBe(true);
    expect(html).toContain(`http://localhost/schedules/${mine.icsToken}.ics`);
    const rows = [...html.matchAll(/<tr data-start="([^"]+)">/g)].map((m) => m[1]);
    const expected = (await schedules.shifts(mine, clock(), clock() + 14 * 86_400_000)).map((s) => new Date(s.start).toISOString());
    expect(rows).toEqual(expected);
    expect(rows.length).toBe(15); // today's shift (begun at 09:00) and one a day after it

    const csrf = await owner.csrf(page);
    // 2026-11-20 18:00–23:00 Istanbul time (+03) is 15:00–20:00Z.
    const r = await owner.post(`${page}/${mine.id}/overrides`, { _csrf: csrf, from: '2026-11-20T18:00', to: '2026-11-20T23:00', number: '0532 444 44 44', name: 'Deniz' });
    expect(r.status).toBe(303);
    expect(await store.schedules.overrides(mine.id, clock())).toMatchObject([
      { startsAt: Date.parse('2026-11-20T15:00:00Z'), endsAt: Date.parse('2026-11-20T20:00:00Z'), name: 'Deniz', phoneNumber: '5324444444' },
    ]);
    const after = await (await owner.get(`${page}?ok`)).text();
    expect(after).toContain('Override added.');
    expect(after).toContain('Deniz 5324444444');
    expect(after).toContain(`<tr data-start="2026-11-20T15:00:00.000Z">`);
  });

  test('a bad override keeps the draft with the reason; another account\'s schedule is not found', async () => {
    const { owner, page, mine, theirs, b, store } = await setup();
    const csrf = await owner.csrf(page);
    const bad = await owner.post(`${page}/${mine.id}/overrides`, { _csrf: csrf, from: '2026-11-20T23:00', to: '2026-11-20T18:00', number: '5324444444', name: '' });
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toContain('Invalid override: --to must be after --from');
    expect(html).toContain('value="2026-11-20T23:00"');
    expect((await owner.post(`${page}/${theirs.id}/overrides`, { _csrf: csrf, from: '2026-11-20T18:00', to: '2026-11-20T23:00', number: '5324444444' })).status).toBe(404);
    expect(await store.schedules.overrides(theirs.id, 0)).toEqual([]);
    expect((await owner.get(`/panel/a/${b.id}/schedules`)).status).toBe(404);
  });
});

test('a policy step written in the panel names a schedule with @', async () => {
  const { owner, a, store } = await setup();
  const page = `/panel/a/${a.id}/policies`;
  const csrf = await owner.csrf(page);
  expect((await owner.post(page, { _csrf: csrf, name: 'oncall', steps: '@noc, 5322222222 : 120\n@noc', rounds: '1' })).status).toBe(303);
  const [policy] = await store.policies.list(a.id);
  expect(policy!.steps).toEqual([
    { numbers: ['5322222222'], schedules: ['noc'], wait_s: 120 },
    { numbers: [], schedules: ['noc'], wait_s: 300 },
  ]);
  expect(await (await owner.get(page)).text()).toContain('@noc, 5322222222 : 120\n@noc : 300');
});

describe('panel overview: on call now and open alerts', () => {
  test('shows who is on call in each schedule, and the open alerts newest first, each linking to its page', async () => {
    const { owner, admin, a, b, store, clock } = await setup();
    const alert = (accountId: string, message: string, at: number) =>
      store.transaction((tx) => tx.alerts.create({ accountId, credentialId: null, key: null, source: 'api', message }, at));
    const older = await alert(a.id, 'Disk full on db1', clock() - 60_000);
    const newer = await alert(a.id, 'Core switch down', clock() - 1_000);
    const closed = await alert(a.id, 'Already handled', clock() - 30_000);
    await store.transaction((tx) => tx.alerts.move(closed, { from: 'open', to: 'resolved', at: clock() }));
    const other = await alert(b.id, 'Their alert', clock() - 500);

    const html = await (await owner.get('/panel/overview')).text();
    expect(html).toMatch(/<dd data-schedule="noc"><strong>Ayşe 5321111111<\/strong>/);
    expect(html).not.toContain('data-schedule="theirs"');
    const listed = [...html.matchAll(/<tr data-alert="([^"]+)">\s*<td[^>]*><a href="([^"]+)"/g)].map((m) => [m[1], m[2]]);
    expect(listed).toEqual([
      [newer, `/panel/a/${a.id}/alerts/${newer}`],
      [older, `/panel/a/${a.id}/alerts/${older}`],
    ]);
    // The administrator sees every account's.
    const adminHtml = await (await admin.get('/panel/overview')).text();
    expect(adminHtml).toContain('data-schedule="theirs"');
    expect([...adminHtml.matchAll(/<tr data-alert="([^"]+)">/g)].map((m) => m[1])).toEqual([other, newer, older]);
  });

  test('delete asks first; while a policy names the schedule the page names it, offers no delete, and a forced POST is 409', async () => {
    const { owner, page, mine, theirs, store, clock, a } = await setup();
    const policies = createPoliciesService({ store, clock });
    const p = await policies.create(a.id, { name: 'escalate', steps: [{ schedules: ['noc'], wait_s: 60 }] });
    if (!p.ok) throw new Error('policy');
    const csrf = await owner.csrf(page);
    const asked = await owner.post(`${page}/${mine.id}/delete`, { _csrf: csrf });
    expect(asked.status).toBe(200);
    const html = await asked.text();
    expect(html).toContain('Delete the schedule noc?');
    expect(html).toContain('Ayşe 5321111111');
    expect(html).toMatch(new RegExp(`data-kind="policy" data-id="${p.policy.id}"[^>]*>[^<]*<span>escalate</span>`));
    expect(html).not.toContain('name="confirm" value="1"');
    expect((await owner.post(`${page}/${mine.id}/delete`, { _csrf: csrf, confirm: '1' })).status).toBe(409);
    expect(await store.schedules.get(mine.id)).not.toBeNull();

    // With the policy gone: the page offers the delete, and the confirmed POST deletes.
    expect((await policies.remove(a.id, 'escalate')).ok).toBe(true);
    const again = await (await owner.post(`${page}/${mine.id}/delete`, { _csrf: csrf })).text();
    expect(again).toContain('name="confirm" value="1"');
    expect(again).not.toContain('data-used-by');
    expect((await owner.post(`${page}/${mine.id}/delete`, { _csrf: csrf, confirm: '1' })).status).toBe(303);
    expect(await store.schedules.get(mine.id)).toBeNull();
    // Another account's schedule is not found, and stays.
    expect((await owner.post(`${page}/${theirs.id}/delete`, { _csrf: csrf, confirm: '1' })).status).toBe(404);
    expect(await store.schedules.get(theirs.id)).not.toBeNull();
  });
});
