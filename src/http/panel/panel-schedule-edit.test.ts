import { describe, expect, test } from 'vitest';
import { manualClock } from '../../../test/helpers/memory-store';
import { browser, panelApp } from '../../../test/helpers/panel-app';

// docs/on-call.md "On-call schedules": a schedule created and edited in the panel, with a
// preview of the next 14 days before it is saved; editing keeps the feed URL and the overrides;
// an override removed.
const PW = 'a-long-password-1';
/** What `schedule create --layers` would be given for the same schedule. */
const LAYERS = [
  { participants: [{ name: 'Ayşe', number: '5321111111' }, { name: 'Bora', number: '5322222222' }], shift: '1d', start: '2026-11-15T09:00' },
  { participants: [{ name: '5323333333', number: '5323333333' }], shift: '7d', start: '2026-11-01T00:00', restrictions: [{ days: ['sat', 'sun'], from: '10:00', to: '16:00' }] },
];
const FORM = {
  name: 'noc',
  time_zone: 'Europe/Istanbul',
  l0_participants: 'Ayşe, 5321111111\r\nBora, 0532 222 22 22',
  l0_shift: '1d',
  l0_start: '2026-11-15T09:00',
  l0_restrictions: '',
  l1_participants: '5323333333',
  l1_shift: '7d',
  l1_start: '2026-11-01T00:00',
  l1_restrictions: 'sat, sun 10:00-16:00',
  // The empty slot for a further layer, as the browser sends it.
  l2_participants: '',
  l2_shift: '',
  l2_start: '',
  l2_restrictions: '',
};

async function setup() {
  const clock = manualClock('2026-11-15T09:00:00Z');
  const ctx = await panelApp({ language: 'en' }, clock);
  const a = await ctx.store.transaction((tx) => tx.accounts.create({ name: 'Acme', plan: 'starter' }));
  const b = await ctx.store.transaction((tx) => tx.accounts.create({ name: 'Other', plan: 'starter' }));
  await ctx.users.createOwner(a.id, 'a@acme.test', PW);
  const owner = browser(ctx.app);
  await owner.login('a@acme.test', PW);
  const page = `/panel/a/${a.id}/schedules`;
  const csrf = await owner.csrf(`${page}/new`);
  return { ...ctx, clock, a, b, owner, page, csrf, schedules: ctx.deps.services.schedules };
}

const startsOf = (html: string) => [...html.matchAll(/<tr data-start="([^"]+)">/g)].map((m) => m[1]);

describe('panel: creating and editing a schedule', () => {
  test('Preview shows the next 14 days and saves nothing; Save stores the layers the CLI would', async () => {
    const { owner, page, csrf, store, a, schedules, clock } = await setup();
    const preview = await owner.post(`${page}/new`, { _csrf: csrf, ...FORM, do: 'preview' });
    expect(preview.status).toBe(200);
    const html = await preview.text();
    expect(html).toContain('data-testid="preview"');
    expect(html).toContain('name="do" value="save"');
    expect(await store.schedules.list(a.id)).toEqual([]);
    // The same shifts as a schedule made from the same layers (what `schedule create` stores).
    const made = await schedules.create(a.id, { name: 'cli', timeZone: 'Europe/Istanbul', layers: LAYERS });
    if (!made.ok) throw new Error(made.code);
    const expected = (await schedules.shifts(made.schedule, clock(), clock() + 14 * 86_400_000)).map((s) => new Date(s.start).toISOString());
    expect(startsOf(html)).toEqual(expected);
    // Nothing typed is lost: the fields come back as typed.
    expect(html).toContain('sat, sun 10:00-16:00');

    const saved = await owner.post(`${page}/new`, { _csrf: csrf, ...FORM, do: 'save' });
    expect(saved.status).toBe(303);
    const noc = await store.schedules.find(a.id, 'noc');
    expect(noc!.layers).toEqual(made.schedule.layers);
    expect(await (await owner.get(`${page}?saved`)).text()).toContain('Schedule saved.');
  });

  test('the Hand-off calls box (docs/on-call.md "Hand-off calls"): ticked saves it on, shown on the list and kept ticked on edit; unticked turns it off', async () => {
    const { owner, page, csrf, store, a } = await setup();
    expect(await (await owner.get(`${page}/new`)).text()).toContain('name="handoff_call"');
    expect((await owner.post(`${page}/new`, { _csrf: csrf, ...FORM, handoff_call: '1', do: 'save' })).status).toBe(303);
    const [s] = await store.schedules.list(a.id);
    expect(s!.handoffCall).toBe(true);
    expect(await (await owner.get(page)).text()).toContain('data-testid="handoff-call"');
    const edit = await (await owner.get(`${page}/${s!.id}/edit`)).text();
    expect(edit).toMatch(/<input id="s-handoff" type="checkbox" name="handoff_call" value="1" checked/);
    // A browser sends nothing for an unticked box.
    expect((await owner.post(`${page}/${s!.id}/edit`, { _csrf: csrf, ...FORM, do: 'save' })).status).toBe(303);
    expect((await store.schedules.get(s!.id))!.handoffCall).toBe(false);
    expect(await (await owner.get(page)).text()).not.toContain('data-testid="handoff-call"');
  });

  test('a participant typed as +Name is the person (docs/on-call.md "People"): stored by id, on call through their phone, a new phone followed; the edit form shows +Name', async () => {
    const { owner, page, csrf, store, a, schedules, deps, clock } = await setup();
    const people = deps.services.people;
    const ayse = await people.create(a.id, { name: 'Ayşe', phones: ['5321111111'] });
    if (!ayse.ok) throw new Error(ayse.code);
    // A person's name in any case, beside a bare number; 1-day shifts from 09:00 Istanbul (06:00Z) today.
    const form = { _csrf: csrf, name: 'noc', time_zone: 'Europe/Istanbul', l0_participants: '+ayşe\r\nBora, 5322222222', l0_shift: '1d', l0_start: '2026-11-15T09:00', do: 'save' };
    expect((await owner.post(`${page}/new`, form)).status).toBe(303);
    const noc = (await store.schedules.find(a.id, 'noc'))!;
    expect(noc.layers[0]!.participants).toEqual([{ person: ayse.person.id }, { name: 'Bora', number: '5322222222' }]);

    // What `schedule oncall` answers (the same service): the person, reached on their phone.
    const now = await schedules.oncall(a.id, 'noc', clock());
    expect(now).toMatchObject({ ok: true, oncall: { name: 'Ayşe', number: '5321111111', person: ayse.person.id } });
    const tomorrow = await schedules.oncall(a.id, 'noc', Date.parse('2026-11-16T09:00:00Z'));
    expect(tomorrow).toMatchObject({ ok: true, oncall: { name: 'Bora', number: '5322222222' } });
    // A new phone holds at once, the schedule unedited.
    expect((await people.update(a.id, 'Ayşe', { phones: ['5324444444'] })).ok).toBe(true);
    expect(await schedules.oncall(a.id, 'noc', clock())).toMatchObject({ ok: true, oncall: { name: 'Ayşe', number: '5324444444', person: ayse.person.id } });

    const edit = await (await owner.get(`${page}/${noc.id}/edit`)).text();
    expect(edit).toContain('+Ayşe\nBora, 5322222222');
    // An unknown person is refused, nothing saved.
    const unknown = await owner.post(`${page}/new`, { ...form, name: 'noc2', l0_participants: '+Zeynep' });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain('Zeynep');
    expect(await store.schedules.find(a.id, 'noc2')).toBeNull();
  });

  test('bad input: a clear error, the form as typed, nothing saved', async () => {
    const { owner, page, csrf, store, a } = await setup();
    const badShift = await owner.post(`${page}/new`, { _csrf: csrf, ...FORM, l0_shift: '1w', do: 'save' });
    expect(badShift.status).toBe(400);
    const html = await badShift.text();
    expect(html).toContain('Invalid schedule: layers.0.shift: Nd or Nh, e.g. 7d or 12h');
    expect(html).toContain('value="1w"');
    expect(html).toContain('Bora, 0532 222 22 22');
    const badRestriction = await owner.post(`${page}/new`, { _csrf: csrf, ...FORM, l1_restrictions: 'weekends', do: 'preview' });
    expect(badRestriction.status).toBe(400);
    expect(await badRestriction.text()).toContain('layers.1.restrictions.0: &quot;weekends&quot; is not like');
    const badZone = await owner.post(`${page}/new`, { _csrf: csrf, ...FORM, time_zone: 'GMT+3', do: 'save' });
    expect(badZone.status).toBe(400);
    expect(await badZone.text()).toContain('time_zone: not an IANA time zone: GMT+3');
    const noLayers = await owner.post(`${page}/new`, { _csrf: csrf, name: 'x', time_zone: 'UTC', do: 'save' });
    expect(noLayers.status).toBe(400);
    expect(await store.schedules.list(a.id)).toEqual([]);
    // A name taken: 409, the form kept.
    expect((await owner.post(`${page}/new`, { _csrf: csrf, ...FORM, do: 'save' })).status).toBe(303);
    const taken = await owner.post(`${page}/new`, { _csrf: csrf, ...FORM, do: 'save' });
    expect(taken.status).toBe(409);
    expect(await taken.text()).toContain('already has this name');
  });

  test('editing keeps the id, the feed URL and the overrides; the preview counts the overrides', async () => {
    const { owner, page, csrf, store, a, schedules } = await setup();
    const made = await schedules.create(a.id, { name: 'noc', timeZone: 'Europe/Istanbul', layers: LAYERS.slice(0, 1) });
    if (!made.ok) throw new Error(made.code);
    const s = made.schedule;
    const o = await schedules.addOverride(a.id, 'noc', { from: '2026-11-20T15:00:00Z', to: '2026-11-20T20:00:00Z', number: '5324444444', name: 'Deniz' });
    if (!o.ok) throw new Error(o.code);
    const edit = await (await owner.get(`${page}/${s.id}/edit`)).text();
    expect(edit).toContain('Ayşe, 5321111111\nBora, 5322222222');
    // The start as the panel writes dates (docs/panel.md "Typing dates"), taken back as it is below.
    expect(edit).toContain('value="15/11/2026, 09:00"');

    const form = { _csrf: csrf, name: 'noc', time_zone: 'Europe/Istanbul', l0_participants: 'Bora, 5322222222\nAyşe, 5321111111', l0_shift: '12h', l0_start: '15/11/2026, 09:00' };
    const preview = await (await owner.post(`${page}/${s.id}/edit`, { ...form, do: 'preview' })).text();
    expect(preview).toContain('<tr data-start="2026-11-20T15:00:00.000Z">');
    expect((await store.schedules.get(s.id))!.layers[0]!.shift).toBe('1d');

    expect((await owner.post(`${page}/${s.id}/edit`, { ...form, do: 'save' })).status).toBe(303);
    const after = (await store.schedules.get(s.id))!;
    expect(after.icsToken).toBe(s.icsToken);
    expect(after.layers[0]).toMatchObject({ shift: '12h', participants: [{ name: 'Bora' }, { name: 'Ayşe' }] });
    expect((await store.schedules.overrides(s.id, 0)).map((x) => x.id)).toEqual([o.override.id]);
    const oncall = await schedules.oncall(a.id, 'noc', Date.parse('2026-11-15T09:00:00Z'));
    expect(oncall.ok && oncall.oncall.name).toBe('Bora');
  });

  test('a rename is refused while a policy names the schedule; another account\'s schedule is not found', async () => {
    const { owner, page, csrf, a, b, schedules, deps } = await setup();
    const made = await schedules.create(a.id, { name: 'noc', timeZone: 'UTC', layers: LAYERS.slice(0, 1) });
    const theirs = await schedules.create(b.id, { name: 'theirs', timeZone: 'UTC', layers: LAYERS.slice(0, 1) });
    if (!made.ok || !theirs.ok) throw new Error('schedules');
    await deps.services.policies.create(a.id, { name: 'oncall', steps: [{ numbers: [], schedules: ['noc'] }] });
    const form = { _csrf: csrf, name: 'noc2', time_zone: 'UTC', l0_participants: '5321111111', l0_shift: '1d', l0_start: '2026-11-15T09:00', do: 'save' };
    const r = await owner.post(`${page}/${made.schedule.id}/edit`, form);
    expect(r.status).toBe(409);
    const html = await r.text();
    expect(html).toContain('Renaming is refused while policies name this schedule');
    expect(html).toContain('value="noc2"');
    expect((await schedules.oncall(a.id, 'noc')).ok).toBe(true);
    expect((await owner.get(`${page}/${theirs.schedule.id}/edit`)).status).toBe(404);
    expect((await owner.post(`${page}/${theirs.schedule.id}/edit`, { ...form, name: 'theirs' })).status).toBe(404);
  });

  test('an override removed from the list; an unknown one is 404', async () => {
    const { owner, page, csrf, store, a, schedules } = await setup();
    const made = await schedules.create(a.id, { name: 'noc', timeZone: 'UTC', layers: LAYERS.slice(0, 1) });
    if (!made.ok) throw new Error(made.code);
    const o = await schedules.addOverride(a.id, 'noc', { from: '2026-11-20T15:00:00Z', to: '2026-11-20T20:00:00Z', number: '5324444444' });
    if (!o.ok) throw new Error(o.code);
    const list = await (await owner.get(page)).text();
    const action = `${page}/${made.schedule.id}/overrides/${o.override.id}/delete`;
    expect(list).toContain(`action="${action}"`);
    expect((await owner.post(action, { _csrf: csrf })).status).toBe(303);
    expect(await store.schedules.overrides(made.schedule.id, 0)).toEqual([]);
    expect(await (await owner.get(`${page}?removed`)).text()).toContain('Override removed.');
    const again = await owner.post(action, { _csrf: csrf });
    expect(again.status).toBe(404);
    expect(await again.text()).toContain('No such override');
    // Without the CSRF token nothing happens.
    expect((await owner.post(action, {})).status).toBe(403);
  });
});
