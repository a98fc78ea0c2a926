import { describe, expect, test } from 'vitest';
import { manualClock } from '../../../test/helpers/memory-store';
import { browser, panelApp } from '../../../test/helpers/panel-app';

/** Issue 49 §3 "The first hour": the panel agrees with itself and speaks one language. */
const PW = 'a-long-password-1';

async function setup(more: Record<string, unknown> = {}) {
  const clock = manualClock('2026-11-15T09:00:00Z');
  const ctx = await panelApp({}, clock, undefined, more);
  await ctx.users.createAdmin('admin', PW);
  const a = await ctx.store.transaction((tx) => tx.accounts.create({ name: 'Acme', plan: 'starter' }));
  const b = await ctx.store.transaction((tx) => tx.accounts.create({ name: 'Other', plan: 'starter' }));
  const admin = browser(ctx.app);
  await admin.login('admin', PW);
  return { ...ctx, clock, a, b, admin };
}

const testId = (html: string, id: string) => new RegExp(`data-testid="${id}"[^>]*>([^<]*)<`).exec(html)?.[1];

describe('panel: the first hour', () => {
  test('the Overview\'s "Open alerts" tile counts what its list of open alerts shows: open and unacknowledged', async () => {
    const { admin, store, clock, a } = await setup();
    const ids: string[] = [];
    for (const message of ['Disk dolu', 'CPU', 'RAM']) {
      ids.push(await store.transaction((tx) => tx.alerts.create({ accountId: a.id, credentialId: null, key: null, source: 'api', message }, clock())));
    }
    // Two ended with nobody pressing 1 (unacknowledged, still open to people), one resolved.
    for (const id of ids.slice(0, 2)) {
      await store.transaction((tx) => tx.alerts.move(id, { from: 'open', to: 'unacknowledged', at: clock(), reason: 'every call ended without an acknowledgement', acknowledgedBy: null }));
    }
    await store.transaction((tx) => tx.alerts.move(ids[2]!, { from: 'open', to: 'resolved', at: clock(), reason: null, acknowledgedBy: null }));
    const page = await (await admin.get('/panel/overview')).text();
    const listed = page.slice(page.indexOf('id="ov-open-alerts"')).split('</table>')[0]!.match(/<tr/g)!.length - 1; // less the header row
    expect(listed).toBe(2);
    expect(testId(page, 'open-alerts')).toBe(String(listed));
    expect(testId(page, 'unacknowledged')).toBe('2');
    // The list's badges are alert states, in the panel's language (Turkish by default), never the raw word.
    const list = page.slice(page.indexOf('id="ov-open-alerts"'));
    expect(list).toContain('data-alert-state="unacknowledged">Onaylanmadı</span>');
    expect(list).not.toMatch(/>unacknowledged</);
  });

  test("the administrator's every-account lists say whose each row is; an owner's do not", async () => {
    const { admin, store, clock, a, b, users, app } = await setup();
    for (const acc of [a, b]) {
      const alertId = await store.transaction((tx) => tx.alerts.create({ accountId: acc.id, credentialId: null, key: null, source: 'api', message: `down at ${acc.name}` }, clock()));
      const [call] = await store.transaction((tx) => tx.calls.enqueue([{ accountId: acc.id, credentialId: null, source: 'api' as const, phoneNumber: '5321111111', message: 'm', alertId }], clock()));
      await store.transaction((tx) => tx.calls.move(call!, { from: 'queued', to: 'busy', at: clock(), attempt: 0, sipCode: 486, reason: 'Busy Here', finished: true }));
    }
    const page = await (await admin.get('/panel/overview')).text();
    for (const table of ['open-alerts-table', 'failures-table']) {
      const html = page.slice(page.indexOf(`id="${table}"`)).split('</table>')[0]!;
      expect(html, table).toContain('<th scope="col">Hesap</th>');
      expect(html, table).toContain(`data-account="${a.id}">Acme</a>`);
      expect(html, table).toContain(`data-account="${b.id}">Other</a>`);
    }
    await users.createOwner(a.id, 'a@acme.test', PW);
    const owner = browser(app);
    await owner.login('a@acme.test', PW);
    const own = await (await owner.get('/panel/overview')).text();
    expect(own).toContain('id="open-alerts-table"');
    expect(own).not.toContain('<th scope="col">Hesap</th>');
  });
});
