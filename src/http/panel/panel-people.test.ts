import { describe, expect, test } from 'vitest';
import { acmeOwnerOn, panelApp } from '../../../test/helpers/panel-app';
import { createSchedulesService } from '../../schedules';

// docs/on-call.md "People": the panel's people page (list, add, edit, delete asked first).

const setup = async () => acmeOwnerOn(await panelApp(), 'people');

describe('panel: people', () => {
  test('add (phones one a line, in order), list, edit, delete after asking; errors keep the draft', async () => {
    const { store, a, owner, page } = await setup();
    let csrf = await owner.csrf(page);
    const created = await owner.post(page, { _csrf: csrf, name: 'Ayşe', phones: '0532 111 11 11\n5322222222', sms: '5321111111', emails: 'ayse@example.com', language: 'en', time_zone: 'Europe/Istanbul' });
    expect(created.status).toBe(303);
    const [person] = await store.people.list(a.id);
    expect(person).toMatchObject({ name: 'Ayşe', phones: [{ number: '5321111111' }, { number: '5322222222' }], sms: ['5321111111'], emails: ['ayse@example.com'], language: 'en', timeZone: 'Europe/Istanbul' });

    const html = await (await owner.get(page)).text();
    expect(html).toContain('data-person="Ayşe"');
    expect(html).toContain('data-phone="5322222222"');
    expect(html).toContain('5321111111\n5322222222</textarea>');

    csrf = await owner.csrf(page);
    expect((await owner.post(`${page}/${person!.id}`, { _csrf: csrf, name: 'Ayşe', phones: '5323333333', sms: '', emails: '', language: 'tr', time_zone: '' })).status).toBe(303);
    expect(await store.people.get(person!.id)).toMatchObject({ phones: [{ number: '5323333333' }], sms: [], language: 'tr', timeZone: null });

    const bad = await owner.post(page, { _csrf: csrf, name: 'Cem', phones: '12345', language: 'tr' });
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(badHtml).toContain('12345');
    expect(badHtml).toContain('>12345</textarea>');
    const dup = await owner.post(page, { _csrf: csrf, name: 'AYŞE', phones: '', language: 'tr' });
    expect(dup.status).toBe(400);

    const asked = await owner.post(`${page}/${person!.id}/delete`, { _csrf: csrf });
    expect(asked.status).toBe(200);
    const askedHtml = await asked.text();
    expect(askedHtml).toContain('5323333333');
    expect(askedHtml).toContain('name="confirm" value="1"');
    expect(askedHtml).not.toContain('data-used-by');
    expect((await owner.post(`${page}/${person!.id}/delete`, { _csrf: csrf, confirm: '1' })).status).toBe(303);
    expect(await store.people.list(a.id)).toEqual([]);
  });

  test("a person a schedule names: the confirmation page names it and offers no delete; a forced POST is 409; another account's person is not found", async () => {
    const { store, a, b, owner, page, deps } = await setup();
    const mine = await store.transaction((tx) => tx.people.create(a.id, { name: 'Ayşe', phones: [{ number: '5321111111', verifiedAt: null }], sms: [], emails: [], language: 'tr', timeZone: null }, 0));
    const theirs = await store.transaction((tx) => tx.people.create(b.id, { name: 'Bora', phones: [], sms: [], emails: [], language: 'tr', timeZone: null }, 0));
    const s = await createSchedulesService({ store, clock: deps.clock }).create(a.id, {
      name: 'noc',
      timeZone: 'Europe/Istanbul',
      layers: [{ participants: [{ person: 'Ayşe' }], shift: '7d', start: '2026-11-02T09:00' }],
    });
    expect(s.ok).toBe(true);
    const csrf = await owner.csrf(page);
    const asked = await owner.post(`${page}/${mine.id}/delete`, { _csrf: csrf });
    expect(asked.status).toBe(200);
    const html = await asked.text();
    expect(html).toContain('data-used-by');
    expect(html).toContain('data-kind="schedule"');
    expect(html).not.toContain('name="confirm" value="1"');
    const forced = await owner.post(`${page}/${mine.id}/delete`, { _csrf: csrf, confirm: '1' });
    expect(forced.status).toBe(409);
    expect(await store.people.get(mine.id)).not.toBeNull();

    expect((await owner.post(`${page}/${theirs.id}/delete`, { _csrf: csrf })).status).toBe(404);
    expect((await owner.post(`${page}/${theirs.id}`, { _csrf: csrf, name: 'Bora', phones: '5329999999', language: 'tr' })).status).toBe(404);
    expect(await store.people.get(theirs.id)).toMatchObject({ phones: [] });
    expect((await owner.get(`/panel/a/${b.id}/people`)).status).toBe(404);
  });

  test("a person who is the account's fallback: the confirmation page names the fallback and offers no delete; a forced POST is 409; once the fallback is a number it deletes", async () => {
    const { store, a, owner, page } = await setup();
    const ayse = await store.transaction((tx) => tx.people.create(a.id, { name: 'Ayşe', phones: [{ number: '5321111111', verifiedAt: null }], sms: [], emails: [], language: 'tr', timeZone: null }, 0));
    const csrf = await owner.csrf(page);
    expect((await owner.post(`/panel/a/${a.id}/fallback`, { _csrf: csrf, phone: '+Ayşe' })).status).toBe(303);
    const asked = await owner.post(`${page}/${ayse.id}/delete`, { _csrf: csrf });
    expect(asked.status).toBe(200);
    const html = await asked.text();
    expect(html).toContain('data-used-by');
    expect(html).toContain(`data-kind="fallback" data-id="${a.id}"`);
    expect(html).not.toContain('data-kind="schedule"');
    expect(html).not.toContain('name="confirm" value="1"');
    const forced = await owner.post(`${page}/${ayse.id}/delete`, { _csrf: csrf, confirm: '1' });
    expect(forced.status).toBe(409);
    expect(await forced.text()).toContain('data-kind="fallback"');
    expect(await store.people.get(ayse.id)).not.toBeNull();
    expect(await store.fallbacks.get(a.id)).toMatchObject({ personId: ayse.id });

    expect((await owner.post(`/panel/a/${a.id}/fallback`, { _csrf: csrf, phone: '5329999999' })).status).toBe(303);
    expect((await owner.post(`${page}/${ayse.id}/delete`, { _csrf: csrf, confirm: '1' })).status).toBe(303);
    expect(await store.people.get(ayse.id)).toBeNull();
  });

  test('the fallback card takes +name for a person and shows them so; an unknown person is refused', async () => {
    const { store, a, owner } = await setup();
    const ayse = await store.transaction((tx) => tx.people.create(a.id, { name: 'Ayşe', phones: [{ number: '5321111111', verifiedAt: null }], sms: [], emails: [], language: 'tr', timeZone: null }, 0));
    const page = `/panel/a/${a.id}/policies`;
    const csrf = await owner.csrf(page);
    expect((await owner.post(`/panel/a/${a.id}/fallback`, { _csrf: csrf, phone: '+ayşe' })).status).toBe(303);
    expect(await store.fallbacks.get(a.id)).toMatchObject({ phoneNumber: null, personId: ayse.id });
    expect(await (await owner.get(page)).text()).toContain('data-fallback="+Ayşe"');
    const unknown = await owner.post(`/panel/a/${a.id}/fallback`, { _csrf: csrf, phone: '+Zeynep' });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain('Zeynep');
    // A number still works.
    expect((await owner.post(`/panel/a/${a.id}/fallback`, { _csrf: csrf, phone: '0532 999 99 99' })).status).toBe(303);
    expect(await store.fallbacks.get(a.id)).toMatchObject({ phoneNumber: '5329999999', personId: null });
  });

  test('the Verify button queues a verification call per phone (no credit) and the page shows each phone\'s last check', async () => {
    const { store, a, b, owner, page } = await setup();
    const ayse = await store.transaction((tx) =>
      tx.people.create(a.id, { name: 'Ayşe', phones: [{ number: '5321111111', verifiedAt: null }, { number: '5322222222', verifiedAt: null }], sms: [], emails: [], language: 'tr', timeZone: null }, 0),
    );
    let html = await (await owner.get(page)).text();
    expect(html).toContain(`action="${page}/${ayse.id}/verify"`);
    const csrf = await owner.csrf(page);
    const placed = await owner.post(`${page}/${ayse.id}/verify`, { _csrf: csrf });
    expect(placed.status).toBe(303);
    expect(placed.headers.get('location')).toBe(`${page}?verifying=2`);
    const calls = await store.calls.list({ accountId: a.id });
    expect(calls.map((c) => [c.phoneNumber, c.verify, c.charged]).sort()).toEqual([
      ['5321111111', true, false],
      ['5322222222', true, false],
    ]);
    // Another account's person is not found.
    const mine = await store.transaction((tx) => tx.people.create(b.id, { name: 'Cem', phones: [{ number: '5323333333', verifiedAt: null }], sms: [], emails: [], language: 'tr', timeZone: null }, 0));
    expect((await owner.post(`${page}/${mine.id}/verify`, { _csrf: csrf })).status).toBe(404);
    // The results as the calls leave them on the person (src/people/verify.ts recordVerification).
    await store.transaction((tx) =>
      tx.people.update(ayse.id, { ...ayse, phones: [
        { number: '5321111111', verifiedAt: 1_700_000_000_000, lastCheck: { at: 1_700_000_000_000, ok: true, reason: null } },
        { number: '5322222222', verifiedAt: null, lastCheck: { at: 1_700_000_000_000, ok: false, reason: 'busy' } },
      ] }, 1),
    );
    html = await (await owner.get(page)).text();
    expect(html).toContain('data-last-check="ok"');
    expect(html).toContain('data-last-check="busy"');
    expect(html).toContain('meşgul');
  });
});
