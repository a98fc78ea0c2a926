import { afterEach, describe, expect, test } from 'vitest';
import { periodOf } from '../../credit';
import { browser, panelApp } from '../../../test/helpers/panel-app';
import { DESK_ACTOR } from '../../voice-desk/service';

const PW = 'a-long-password-1';

/** Two accounts with an owner each, the admin, all logged in; `alert()` files one like the intake. */
// Each test's store closed when it ends, not with the file: a dozen stores' pools open at once
// (the alert page reads in parallel) ran the PostgreSQL test cluster out of connections.
const opened: Awaited<ReturnType<typeof panelApp>>[] = [];
afterEach(async () => {
  for (const c of opened.splice(0)) await c.store.close();
});

async function setup(panel = {}) {
  const ctx = await panelApp(panel);
  opened.push(ctx);
  await ctx.users.createAdmin('admin', PW);
  const a = await ctx.store.transaction((tx) => tx.accounts.create({ name: 'Acme', plan: 'starter' }));
  const b = await ctx.store.transaction((tx) => tx.accounts.create({ name: 'Other', plan: 'starter' }));
  await ctx.users.createOwner(a.id, 'a@acme.test', PW);
  await ctx.users.createOwner(b.id, 'b@other.test', PW);
  const admin = browser(ctx.app);
  const ownerA = browser(ctx.app);
  const ownerB = browser(ctx.app);
  await admin.login('admin', PW);
  await ownerA.login('a@acme.test', PW);
  await ownerB.login('b@other.test', PW);
  const period = () => periodOf(Date.now(), ctx.config.credit.timezone);
  /** An alert with one charged, queued call per number, in one transaction like the intake's. */
  const alert = (accountId: string, opts: { key?: string | null; message?: string; numbers?: string[]; at?: number; source?: string } = {}) =>
    ctx.store.transaction(async (tx) => {
      const numbers = opts.numbers ?? ['5321111111'];
      const message = opts.message ?? 'Disk full on db1';
      const now = opts.at ?? Date.now();
      const alertId = await tx.alerts.create({ accountId, credentialId: null, key: opts.key ?? null, source: opts.source ?? 'api', message }, now);
      await tx.usage.charge(accountId, period(), numbers.length);
      const callIds = await tx.calls.enqueue(
        numbers.map((phoneNumber) => ({ accountId, credentialId: null, source: 'api' as const, phoneNumber, message, alertId })),
        now,
      );
      return { alertId, callIds };
    });
  return { ...ctx, a, b, admin, ownerA, ownerB, alert, period };
}

const rowOf = (html: string, id: string) => {
  const m = new RegExp(`<tr data-alert-id="${id}">[\\s\\S]*?</tr>`).exec(html);
  if (!m) throw new Error(`no row for ${id}`);
  return m[0];
};

describe('panel alerts', () => {
  test('filtered by source (the account\'s own sources offered) and state; the list says who acknowledged or resolved', async () => {
    const { a, b, ownerA, alert } = await setup({ language: 'en' });
    const api = await alert(a.id, { message: 'from the api' });
    const am = await alert(a.id, { message: 'from alertmanager', source: 'alertmanager' });
    await alert(b.id, { message: 'theirs', source: 'grafana' });
    const page = `/panel/a/${a.id}/alerts`;
    const all = await (await ownerA.get(page)).text();
    expect([...all.matchAll(/<option value="([^"]*)"[^>]*>[^<]*<\/option>/g)].map((m) => m[1]).filter((v) => ['', 'api', 'alertmanager', 'grafana'].includes(v!))).toContain('alertmanager');
    expect(all).not.toContain('value="grafana"');
    const only = await (await ownerA.get(`${page}?source=alertmanager`)).text();
    expect(only).toContain(am.alertId);
    expect(only).not.toContain(api.alertId);
    expect(only).toContain('<option value="alertmanager" selected>');
    expect(rowOf(only, am.alertId)).toContain('data-testid="alert-source">alertmanager<');
    // An unknown source is no filter at all, never an error.
    expect(await (await ownerA.get(`${page}?source=nope`)).text()).toContain(api.alertId);
    const csrf = await ownerA.csrf(page);
    expect((await ownerA.post(`${page}/${am.alertId}/acknowledge`, { _csrf: csrf, back: 'list' })).status).toBe(303);
    const after = await (await ownerA.get(`${page}?source=alertmanager&state=acknowledged`)).text();
    expect(rowOf(after, am.alertId)).toContain('by panel:a@acme.test');
    expect(await (await ownerA.get(`${page}?source=api&state=acknowledged`)).text()).not.toContain(api.alertId);
  });

  test('the alerts page lists the account\'s alerts newest first with state, key, message and call states', async () => {
    const { a, ownerA, alert } = await setup({ language: 'en' });
    const old = await alert(a.id, { key: null, message: 'first', at: Date.now() - 60_000 });
    const recent = await alert(a.id, { key: 'disk/db1', message: 'second', numbers: ['5321111111', '5322222222'] });
    const res = await ownerA.get(`/panel/a/${a.id}/alerts`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`href="/panel/a/${a.id}/alerts" aria-current="page"`);
    expect(html.indexOf(recent.alertId)).toBeLessThan(html.indexOf(old.alertId));
    const row = rowOf(html, recent.alertId);
    expect(row).toContain('data-alert-state="open"');
    expect(row).toContain('<code>disk/db1</code>');
    expect(row).toContain('second');
    expect(row).toContain('2 · Queued 2');
    expect(row).toContain(`action="/panel/a/${a.id}/alerts/${recent.alertId}/acknowledge"`);
    expect(row).toContain(`action="/panel/a/${a.id}/alerts/${recent.alertId}/resolve"`);
    expect(rowOf(html, old.alertId)).toContain('<td data-label="Key">—</td>');
  });

  test('Acknowledge acknowledges the alert as panel:<login>, cancels its waiting calls and gives their credit back', async () => {
    const { a, store, ownerA, alert, period } = await setup({ language: 'en' });
    const { alertId, callIds } = await alert(a.id, { key: 'k', numbers: ['5321111111', '5322222222'] });
    expect(await store.usage.usedIn(a.id, period())).toBe(2);
    const csrf = await ownerA.csrf(`/panel/a/${a.id}/alerts`);
    const res = await ownerA.post(`/panel/a/${a.id}/alerts/${alertId}/acknowledge`, { _csrf: csrf, back: 'list' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/panel/a/${a.id}/alerts?done=acknowledged&n=2`);
    expect(await store.alerts.get(alertId)).toMatchObject({ state: 'acknowledged', acknowledgedBy: 'panel:a@acme.test' });
    expect((await Promise.all(callIds.map((id) => store.calls.get(id)))).map((c) => c!.state)).toEqual(['cancelled', 'cancelled']);
    expect(await store.usage.usedIn(a.id, period())).toBe(0);

    const list = await (await ownerA.get(res.headers.get('location')!)).text();
    expect(list).toContain('Alert acknowledged; 2 waiting call(s) cancelled.');
    const row = rowOf(list, alertId);
    expect(row).toContain('data-alert-state="acknowledged"');
    expect(row).toContain('2 · Cancelled 2');
    expect(row).not.toContain('/acknowledge'); // no buttons once closed

    // Pressed again (a second tab): nothing changes, and the page says so.
    const again = await ownerA.post(`/panel/a/${a.id}/alerts/${alertId}/acknowledge`, { _csrf: csrf, back: 'detail' });
    expect(again.headers.get('location')).toBe(`/panel/a/${a.id}/alerts/${alertId}?done=unchanged&n=0`);
    expect(await (await ownerA.get(again.headers.get('location')!)).text()).toContain('The alert was already closed; nothing changed.');
  });

  test('Resolve closes the alert; the detail page shows its calls, times and who acted; the filter finds it', async () => {
    const { a, store, admin, alert } = await setup({ language: 'en' });
    const { alertId, callIds } = await alert(a.id, { key: 'k' });
    const open = await alert(a.id, { key: 'other' });
    const csrf = await admin.csrf(`/panel/a/${a.id}/alerts/${alertId}`);
    const res = await admin.post(`/panel/a/${a.id}/alerts/${alertId}/resolve`, { _csrf: csrf, back: 'detail' });
    expect(res.headers.get('location')).toBe(`/panel/a/${a.id}/alerts/${alertId}?done=resolved&n=1`);
    expect(await store.alerts.get(alertId)).toMatchObject({ state: 'resolved', stateReason: 'resolved by panel:admin' });
    const detail = await (await admin.get(res.headers.get('location')!)).text();
    expect(detail).toContain('Alert resolved; 1 waiting call(s) cancelled.');
    expect(detail).toContain('id="alert-detail" data-alert-id="' + alertId + '" data-alert-state="resolved"');
    expect(detail).toContain(`<tr data-call-id="${callIds[0]}">`);
    expect(detail).toContain('data-state="cancelled"');
    expect(detail).toContain('alert resolved'); // the call's last reason
    const resolved = await (await admin.get(`/panel/a/${a.id}/alerts?state=resolved`)).text();
    expect(resolved).toContain(`data-alert-id="${alertId}"`);
    expect(resolved).not.toContain(`data-alert-id="${open.alertId}"`);
  });

  test('the alert page says who acknowledged and links a bundled call to the call it was spoken in', async () => {
    const { a, store, ownerA, alert } = await setup({ language: 'en' });
    const first = await alert(a.id, { key: 'k1' });
    const second = await alert(a.id, { key: 'k2' });
    // The dialer takes the first and bundles the second into it (same account, same number).
    const claimed = (await store.transaction((tx) => tx.calls.claim(Date.now(), 60_000)))!;
    const carrier = claimed.id;
    const bundled = [...first.callIds, ...second.callIds].find((id) => id !== carrier)!;
    expect((await store.calls.get(bundled))!.bundledInto).toBe(carrier);
    const bundledAlert = (await store.calls.get(bundled))!.alertId!;

    const detail = await (await ownerA.get(`/panel/a/${a.id}/alerts/${bundledAlert}`)).text();
    expect(detail).toContain(`<a href="/panel/a/${a.id}/calls/${carrier}" data-testid="bundled-into">${carrier}</a>`);
    const calls = await (await ownerA.get(`/panel/a/${a.id}/calls`)).text();
    expect(calls).toContain(`href="/panel/a/${a.id}/alerts/${first.alertId}"`);
    expect(calls).toContain(`href="/panel/a/${a.id}/calls/${carrier}" data-testid="bundled-into"`);
    const callPage = await ownerA.get(`/panel/a/${a.id}/calls/${bundled}`);
    expect(callPage.status).toBe(200);
    const callHtml = await callPage.text();
    expect(callHtml).toContain(`href="/panel/a/${a.id}/alerts/${bundledAlert}" data-testid="call-alert"`);
    expect(callHtml).toContain(`data-testid="bundled-into">${carrier}</a>`);
    // The test-call status fragment shows the same links.
    const fragment = await (await ownerA.get(`/panel/a/${a.id}/test-call/${bundled}`)).text();
    expect(fragment).toContain(`data-testid="call-alert">${bundledAlert}</a>`);

    const csrf = await ownerA.csrf(`/panel/a/${a.id}/alerts/${first.alertId}`);
    await ownerA.post(`/panel/a/${a.id}/alerts/${first.alertId}/acknowledge`, { _csrf: csrf });
    const acked = await (await ownerA.get(`/panel/a/${a.id}/alerts/${first.alertId}`)).text();
    expect(acked).toContain('<dd data-testid="acknowledged-by">panel:a@acme.test</dd>');
  });

  test('what the voice desk did shows voice-desk as the actor: acknowledged by, and the resolve reason; their calls cancelled', async () => {
    const { a, ownerA, alert, store, deps } = await setup({ language: 'en' });
    const desk = deps.services.desk; // the registry's, as the appliance hands it to desk calls
    const acked = await alert(a.id, { key: 'disk/db1' });
    const resolved = await alert(a.id, { key: 'disk/db2' });
    expect(await desk.acknowledge(a.id, acked.alertId)).toMatchObject({ ok: true, changed: true });
    expect(await desk.resolve(a.id, resolved.alertId)).toMatchObject({ ok: true, changed: true });
    // docs/telephony.md "Voice desk": recorded like the API's actions, with `voice-desk` as the
    // actor.
    const ackPage = await (await ownerA.get(`/panel/a/${a.id}/alerts/${acked.alertId}`)).text();
    expect(ackPage).toContain('data-alert-state="acknowledged"');
    expect(ackPage).toContain(`<dd data-testid="acknowledged-by">${DESK_ACTOR}</dd>`);
    const resolvedPage = await (await ownerA.get(`/panel/a/${a.id}/alerts/${resolved.alertId}`)).text();
    expect(resolvedPage).toContain('data-alert-state="resolved"');
    expect(resolvedPage).toContain('<dd>resolved by voice-desk</dd>');
    for (const id of [...acked.callIds, ...resolved.callIds]) expect((await store.calls.get(id))!.state).toBe('cancelled');
  });

  test("an owner gets 404 for another account's alert, its buttons and its calls, and changes nothing", async () => {
    const { a, b, store, ownerA, ownerB, admin, alert } = await setup();
    const theirs = await alert(b.id);
    const csrf = await ownerA.csrf(`/panel/a/${a.id}/alerts`);
    expect((await ownerA.get(`/panel/a/${b.id}/alerts`)).status).toBe(404);
    expect((await ownerA.get(`/panel/a/${a.id}/alerts/${theirs.alertId}`)).status).toBe(404);
    expect((await ownerA.get(`/panel/a/${a.id}/calls/${theirs.callIds[0]}`)).status).toBe(404);
    expect((await ownerA.post(`/panel/a/${a.id}/alerts/${theirs.alertId}/acknowledge`, { _csrf: csrf })).status).toBe(404);
    expect((await ownerA.post(`/panel/a/${a.id}/alerts/${theirs.alertId}/resolve`, { _csrf: csrf })).status).toBe(404);
    expect((await ownerA.post(`/panel/a/${b.id}/alerts/${theirs.alertId}/resolve`, { _csrf: csrf })).status).toBe(404);
    expect((await store.alerts.get(theirs.alertId))!.state).toBe('open');
    expect(await (await ownerA.get(`/panel/a/${a.id}/alerts`)).text()).not.toContain(theirs.alertId);
    // Its own owner and the administrator see it.
    expect(await (await ownerB.get(`/panel/a/${b.id}/alerts`)).text()).toContain(theirs.alertId);
    expect((await admin.get(`/panel/a/${b.id}/alerts/${theirs.alertId}`)).status).toBe(200);
    // Without the CSRF token nothing happens either.
    expect((await ownerB.post(`/panel/a/${b.id}/alerts/${theirs.alertId}/acknowledge`, {})).status).toBe(403);
    expect((await store.alerts.get(theirs.alertId))!.state).toBe('open');
  });

  test('keys and messages are escaped, never markup', async () => {
    const { a, ownerA, alert } = await setup();
    const { alertId } = await alert(a.id, { key: '<img src=x onerror=alert(1)>', message: '<script>alert(2)</script>' });
    for (const path of [`/panel/a/${a.id}/alerts`, `/panel/a/${a.id}/alerts/${alertId}`]) {
      const html = await (await ownerA.get(path)).text();
      expect(html, path).toContain('&lt;img src=x onerror=alert(1)&gt;');
      expect(html, path).toContain('&lt;script&gt;alert(2)&lt;/script&gt;');
      expect(html, path).not.toContain('<img src=x');
      expect(html, path).not.toContain('<script>alert(2)');
    }
  });

  test('both languages: Turkish by default, English when configured; cancelled has a label in each', async () => {
    const tr = await setup();
    const trAlert = await tr.alert(tr.a.id);
    const csrf = await tr.ownerA.csrf(`/panel/a/${tr.a.id}/alerts`);
    await tr.ownerA.post(`/panel/a/${tr.a.id}/alerts/${trAlert.alertId}/resolve`, { _csrf: csrf, back: 'list' });
    const trHtml = await (await tr.ownerA.get(`/panel/a/${tr.a.id}/alerts?done=resolved&n=1`)).text();
    expect(trHtml).toContain('<title>Alarmlar · voice-alert</title>');
    expect(trHtml).toContain('Alarm kapatıldı; bekleyen 1 arama iptal edildi.');
    expect(trHtml).toContain('Çözüldü');
    expect(trHtml).toContain('1 · İptal edildi 1');
    expect(await (await tr.ownerA.get(`/panel/a/${tr.a.id}/calls`)).text()).toContain('data-state="cancelled">İptal edildi<');

    const en = await setup({ language: 'en' });
    await en.alert(en.a.id);
    const enHtml = await (await en.ownerA.get(`/panel/a/${en.a.id}/alerts`)).text();
    expect(enHtml).toContain('<title>Alerts · voice-alert</title>');
    expect(enHtml).toContain('>Acknowledge</button>');
    expect(enHtml).toContain('>Resolve</button>');
    expect(enHtml).toContain('data-alert-state="open">Open<');
  });

  test('alerts are paged 25 at a time', async () => {
    const { a, ownerA, alert } = await setup();
    const start = Date.now() - 100_000;
    for (let i = 0; i < 27; i++) await alert(a.id, { at: start + i * 1000, message: `m${i}` });
    const page1 = await (await ownerA.get(`/panel/a/${a.id}/alerts`)).text();
    expect(page1.match(/<tr data-alert-id=/g)).toHaveLength(25);
    expect(page1).toContain('rel="next"');
    const page2 = await (await ownerA.get(`/panel/a/${a.id}/alerts?page=2`)).text();
    expect(page2.match(/<tr data-alert-id=/g)).toHaveLength(2);
    expect(page2).toContain('>m0<');
  });
  test('an unacknowledged alert still offers Acknowledge and Resolve; an acknowledged one does not', async () => {
    const { a, ownerA, alert, store } = await setup({ language: 'en' });
    const x = await alert(a.id, { key: 'disk/db1' });
    await store.transaction((tx) =>
      tx.alerts.move(x.alertId, { from: 'open', to: 'unacknowledged', at: Date.now(), reason: 'every call ended without an acknowledgement', acknowledgedBy: null }),
    );
    const action = `action="/panel/a/${a.id}/alerts/${x.alertId}/acknowledge"`;
    expect(await (await ownerA.get(`/panel/a/${a.id}/alerts/${x.alertId}`)).text()).toContain(action);
    await store.transaction((tx) => tx.alerts.move(x.alertId, { from: 'unacknowledged', to: 'acknowledged', at: Date.now(), reason: null, acknowledgedBy: 'api' }));
    expect(await (await ownerA.get(`/panel/a/${a.id}/alerts/${x.alertId}`)).text()).not.toContain(action);
  });
});
