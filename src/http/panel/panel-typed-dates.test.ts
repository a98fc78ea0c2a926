import { describe, expect, test } from 'vitest';
import { manualClock } from '../../../test/helpers/memory-store';
import { acmeOwnerOn, panelApp } from '../../../test/helpers/panel-app';

// docs/panel.md "Typing dates" (issue 49 §3, "dates are typed the way they are shown"): every
// form that asks for a date takes it as the panel shows one, and ISO as before; a date that is
// not one is refused saying so, with every field shown again as typed.
const LAYERS = [{ participants: [{ name: 'Ayşe', number: '5321111111' }], shift: '1d', start: '2026-11-15T09:00' }];

async function setup(language: 'tr' | 'en', section: string) {
  const ctx = await acmeOwnerOn(await panelApp({ language }, manualClock('2026-11-15T09:00:00Z')), section);
  return { ...ctx, csrf: await ctx.owner.csrf(ctx.page) };
}

describe('panel: dates typed the way they are shown', () => {
  test('maintenance: "16.01.2099 01:00" (Turkish) makes the same window as 2099-01-16T01:00; a day that does not exist is refused, nothing lost', async () => {
    const { store, a, owner, page, csrf } = await setup('tr', 'maintenance');
    const html = await (await owner.get(page)).text();
    expect(html).toMatch(/<input id="mw-start" name="start" type="text"[^>]* placeholder="25\.11\.2026 22:00"/);
    expect(html).toContain('Panelin gösterdiği gibi, örneğin 25.11.2026 22:00 (ya da 2026-11-25T22:00).');
    expect((await owner.post(page, { _csrf: csrf, start: '16.01.2099 01:00', end: '2099-01-16T03:30', match: '', reason: 'upgrade' })).status).toBe(303);
    // Europe/Istanbul is UTC+3; the list shows it as typed (seconds aside).
    expect(await store.maintenance.list(a.id)).toMatchObject([{ startsAt: Date.parse('2099-01-15T22:00:00Z'), endsAt: Date.parse('2099-01-16T00:30:00Z') }]);
    expect(await (await owner.get(page)).text()).toContain('16.01.2099 01:00:00');

    const bad = await owner.post(page, { _csrf: csrf, start: '31.02.2099 01:00', end: 'yarın', match: 'key=db-', reason: 'PostgreSQL upgrade' });
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(badHtml).toContain('Başlangıç: &quot;31.02.2099 01:00&quot; bir tarih ve saat değil. 25.11.2026 22:00 gibi yazın (ya da 2026-11-25T22:00).');
    expect(badHtml).toContain('Bitiş: &quot;yarın&quot; bir tarih ve saat değil.');
    expect(badHtml).toContain('value="31.02.2099 01:00"');
    expect(badHtml).toContain('value="yarın"');
    expect(badHtml).toContain('>key=db-</textarea>');
    expect(badHtml).toContain('value="PostgreSQL upgrade"');
    expect(await store.maintenance.list(a.id)).toHaveLength(1);
    // An instant with its offset, as the API takes it, still goes through.
    expect((await owner.post(page, { _csrf: csrf, start: '2099-02-01T00:00:00Z', end: '2099-02-01T01:00:00Z', match: '', reason: '' })).status).toBe(303);
  });

  test('overrides: "Fri, 20/11/2026, 18:00" (English, as the schedules page writes it) is 18:00 in the schedule\'s zone; a wrong one keeps the form open as typed', async () => {
    const { a, owner, page, csrf, deps, store } = await setup('en', 'schedules');
    const made = await deps.services.schedules.create(a.id, { name: 'noc', timeZone: 'Europe/Istanbul', layers: LAYERS });
    if (!made.ok) throw new Error(made.code);
    const s = made.schedule;
    const html = await (await owner.get(page)).text();
    expect(html).toContain('placeholder="25/11/2026, 22:00"');
    expect(html).toContain('Sun, 15/11/2026, 09:00'); // how the page shows a shift's start
    expect((await owner.post(`${page}/${s.id}/overrides`, { _csrf: csrf, from: 'Fri, 20/11/2026, 18:00', to: '20/11/2026 23:00', number: '5324444444', name: 'Deniz' })).status).toBe(303);
    expect((await store.schedules.overrides(s.id, 0)).map((o) => [new Date(o.startsAt).toISOString(), new Date(o.endsAt).toISOString()])).toEqual([['2026-11-20T15:00:00.000Z', '2026-11-20T20:00:00.000Z']]);

    const bad = await owner.post(`${page}/${s.id}/overrides`, { _csrf: csrf, from: '20/11/2026, 25:00', to: '', number: '5324444444', name: 'Deniz' });
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(badHtml).toContain('From: &quot;20/11/2026, 25:00&quot; is not a date and time. Type it like 25/11/2026, 22:00 (or 2026-11-25T22:00).');
    expect(badHtml).toContain('To: a date and time is needed, like 25/11/2026, 22:00.');
    expect(badHtml).toMatch(/<details open>[\s\S]*value="20\/11\/2026, 25:00"[\s\S]*value="5324444444"[\s\S]*value="Deniz"/);
    expect(await store.schedules.overrides(s.id, 0)).toHaveLength(1);
  });

  test('a layer\'s start: the edit form shows it as the panel writes dates ("15.11.2026 09:00") and takes it back; a wrong one names its layer', async () => {
    const { a, owner, page, csrf, deps, store } = await setup('tr', 'schedules');
    const made = await deps.services.schedules.create(a.id, { name: 'noc', timeZone: 'Europe/Istanbul', layers: LAYERS });
    if (!made.ok) throw new Error(made.code);
    const edit = await (await owner.get(`${page}/${made.schedule.id}/edit`)).text();
    expect(edit).toMatch(/name="l0_start" type="text"[^>]* value="15\.11\.2026 09:00"/);
    const form = { _csrf: csrf, name: 'noc', time_zone: 'Europe/Istanbul', l0_participants: 'Ayşe, 5321111111', l0_shift: '12h', l0_start: '15.11.2026 09:00', do: 'save' };
    expect((await owner.post(`${page}/${made.schedule.id}/edit`, form)).status).toBe(303);
    expect((await store.schedules.get(made.schedule.id))!.layers[0]).toMatchObject({ shift: '12h', start: '2026-11-15T09:00' });

    const bad = await owner.post(`${page}/${made.schedule.id}/edit`, { ...form, l1_participants: '5323333333', l1_shift: '7d', l1_start: '15.11.2026 9' });
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(badHtml).toContain('Katman 2, İlk nöbetin başlangıcı (yerel saat): &quot;15.11.2026 9&quot; bir tarih ve saat değil.');
    expect(badHtml).toContain('value="15.11.2026 9"');
    expect(badHtml).toContain('value="12h"');
    expect((await store.schedules.get(made.schedule.id))!.layers).toHaveLength(1);
  });

  test('the calls filter takes "25.11.2026" like 2026-11-25; a day that is not one is said, and the field keeps it', async () => {
    const { a, owner, store } = await setup('tr', 'calls');
    const page = `/panel/a/${a.id}/calls`;
    const at = (iso: string) => store.transaction((tx) => tx.calls.enqueue([{ accountId: a.id, credentialId: null, source: 'api', phoneNumber: '5321234567', message: iso }], Date.parse(iso)));
    const [before] = await at('2026-11-24T12:00:00Z');
    const [on] = await at('2026-11-25T12:00:00Z');
    const ids = (html: string) => [...html.matchAll(/data-call-id="([^"]+)"/g)].map((m) => m[1]);
    const typed = await (await owner.get(`${page}?from=25.11.2026&to=25.11.2026`)).text();
    expect(ids(typed)).toEqual([on]);
    expect(ids(await (await owner.get(`${page}?from=2026-11-25&to=2026-11-25`)).text())).toEqual([on]);
    expect(typed).toContain('value="25.11.2026"');
    const bad = await (await owner.get(`${page}?from=32.11.2026`)).text();
    expect(bad).toContain('role="alert"');
    expect(bad).toContain('&quot;32.11.2026&quot; bir tarih değil. 25.11.2026 gibi yazın (ya da 2026-11-25).');
    expect(bad).toContain('value="32.11.2026"');
    expect(ids(bad)).toEqual(expect.arrayContaining([before, on]));
  });
});
