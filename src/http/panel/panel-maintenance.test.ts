import { describe, expect, test } from 'vitest';
import { acmeOwnerOn, panelApp } from '../../../test/helpers/panel-app';

// docs/on-call.md "Maintenance windows": the panel page (list, create, delete) and the alert page's
// suppression line.

const setup = async () => acmeOwnerOn(await panelApp(), 'maintenance');

describe('panel: maintenance windows', () => {
  test('an owner creates one (local times in credit.timezone, one match per line), sees it listed, deletes it', async () => {
    const { store, a, owner, page } = await setup();
    const csrf = await owner.csrf(page);
    const created = await owner.post(page, { _csrf: csrf, start: '2099-01-16T01:00', end: '2099-01-16T03:30', match: 'key=db-\r\nlabel:env=staging\r\n', reason: 'PostgreSQL upgrade' });
    expect(created.status).toBe(303);
    const [w] = await store.maintenance.list(a.id);
    // Europe/Istanbul is UTC+3.
    expect(w).toMatchObject({ startsAt: Date.parse('2099-01-15T22:00:00Z'), endsAt: Date.parse('2099-01-16T00:30:00Z'), matches: ['key=db-', 'label:env=staging'], reason: 'PostgreSQL upgrade' });

    const html = await (await owner.get(page)).text();
    expect(html).toContain(`data-window="${w!.id}"`);
    expect(html).toContain('<code>label:env=staging</code>');
    expect(html).toContain('PostgreSQL upgrade');

    const bad = await owner.post(page, { _csrf: csrf, start: '2099-01-16T01:00', end: '2099-01-16T03:00', match: 'host=db1', reason: '' });
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(badHtml).toContain('Invalid match (key=PREFIX, source=NAME or label:NAME=VALUE): &quot;host=db1&quot;');
    expect(badHtml).toContain('>host=db1</textarea>');
    const backwards = await owner.post(page, { _csrf: csrf, start: '2099-01-16T03:00', end: '2099-01-16T01:00', match: '', reason: '' });
    expect(backwards.status).toBe(400);
    expect(await backwards.text()).toContain('Maintenance window must end after it starts');

    expect((await owner.post(`${page}/${w!.id}/delete`, { _csrf: csrf })).status).toBe(303);
    expect(await store.maintenance.list(a.id)).toEqual([]);
  });

  test("another account's windows are not found", async () => {
    const { store, b, owner, page } = await setup();
    const theirs = await store.transaction((tx) =>
      tx.maintenance.create({ accountId: b.id, startsAt: Date.now() + 60_000, endsAt: Date.now() + 120_000, reason: '', matches: [] }, Date.now()),
    );
    const csrf = await owner.csrf(page);
    expect((await owner.post(`${page}/${theirs.id}/delete`, { _csrf: csrf })).status).toBe(404);
    expect(await store.maintenance.getInAccount(b.id, theirs.id)).not.toBeNull();
    expect((await owner.get(`/panel/a/${b.id}/maintenance`)).status).toBe(404);
  });

  test('the alert page says which window suppressed the alert', async () => {
    const { store, a, owner } = await setup();
    const until = Date.now() + 3_600_000;
    const alertId = await store.transaction(async (tx) => {
      const id = await tx.alerts.create({ accountId: a.id, credentialId: null, key: 'db-1', source: 'alertmanager', message: 'Disk dolu' }, Date.now());
      await tx.maintenance.suppressAlert(id, 'mw_test', until);
      return id;
    });
    const html = await (await owner.get(`/panel/a/${a.id}/alerts/${alertId}`)).text();
    expect(html).toMatch(/data-testid="suppressed-by"><a href="\/panel\/a\/[^"]+\/maintenance"><code>mw_test<\/code><\/a>/);
  });
});
