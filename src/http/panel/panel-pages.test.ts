import { describe, expect, test } from 'vitest';
import { browser, panelApp } from '../../../test/helpers/panel-app';
import { noProbe } from '../../calls';

const PW = 'a-long-password-1';

/** An admin, two accounts each with an owner, and a browser per person, all logged in. */
async function setup(panel = {}, more: Record<string, unknown> = {}) {
  const ctx = await panelApp(panel, undefined, undefined, more);
  await ctx.users.createAdmin('admin', PW);
  const a = await ctx.store.transaction((tx) => tx.accounts.create({ name: 'Acme <b>bold</b>', plan: 'starter' }));
  const b = await ctx.store.transaction((tx) => tx.accounts.create({ name: 'Other', plan: 'starter' }));
  await ctx.users.createOwner(a.id, 'a@acme.test', PW);
  await ctx.users.createOwner(b.id, 'b@other.test', PW);
  const admin = browser(ctx.app);
  const ownerA = browser(ctx.app);
  await admin.login('admin', PW);
  await ownerA.login('a@acme.test', PW);
  return { ...ctx, a, b, admin, ownerA };
}

describe('panel pages over HTTP', () => {
  test("an owner gets 404 for every page of another account and 403 for the admin's pages", async () => {
    const { a, b, ownerA } = await setup();
    // Everyone lands on the overview (issue 15 §5), scoped to the own account.
    expect((await ownerA.get('/panel')).headers.get('location')).toBe('/panel/overview');
    for (const p of ['keys', 'credit', 'calls', 'history', 'test-call']) {
      expect((await ownerA.get(`/panel/a/${a.id}/${p}`)).status, p).toBe(200);
      expect((await ownerA.get(`/panel/a/${b.id}/${p}`)).status, p).toBe(404);
    }
    expect((await ownerA.get('/panel/accounts')).status).toBe(403);
    expect((await ownerA.get('/panel/settings')).status).toBe(403);
  });

  test("an owner cannot revoke another account's credentials through their own account's path", async () => {
    const { a, b, store, ownerA } = await setup();
    const theirs = await store.transaction((tx) => tx.credentials.create(b.id));
    const csrf = await ownerA.csrf(`/panel/a/${a.id}/keys`);
    const res = await ownerA.post(`/panel/a/${a.id}/keys/${theirs.apiKey}/revoke`, { _csrf: csrf });
    expect(res.status).toBe(404);
    expect(await store.credentials.findByApiKey(theirs.apiKey)).not.toBeNull();
  });

  test('account names are escaped, never markup', async () => {
    const { admin, a } = await setup();
    for (const path of ['/panel/accounts', `/panel/a/${a.id}/keys`, `/panel/a/${a.id}/calls`]) {
      const html = await (await admin.get(path)).text();
      expect(html, path).toContain('Acme &lt;b&gt;bold&lt;/b&gt;');
      expect(html, path).not.toContain('<b>bold</b>');
    }
  });

  test('key actions: signature flag, webhook key rotation (old key stops working), revoke', async () => {
    const { a, store, ownerA } = await setup();
    const csrf = await ownerA.csrf(`/panel/a/${a.id}/keys`);
    const created = await (await ownerA.post(`/panel/a/${a.id}/keys`, { _csrf: csrf, require_signature: '1' })).text();
    const apiKey = /id="issued-api-key"[^>]*>([^<]+)</.exec(created)![1]!;
    const oldHook = /id="issued-webhook-key"[^>]*>([^<]+)</.exec(created)![1]!;
    expect((await store.credentials.findByApiKey(apiKey))!.requireSignature).toBe(true);

    await ownerA.post(`/panel/a/${a.id}/keys/${apiKey}/signature`, { _csrf: csrf, required: '0' });
    expect((await store.credentials.findByApiKey(apiKey))!.requireSignature).toBe(false);

    const rotated = await (await ownerA.post(`/panel/a/${a.id}/keys/${apiKey}/rotate`, { _csrf: csrf, confirm: '1' })).text();
    const newHook = /id="rotated-webhook-key"[^>]*>([^<]+)</.exec(rotated)![1]!;
    expect(await store.credentials.findByWebhookKey(oldHook)).toBeNull();
    expect((await store.credentials.findByWebhookKey(newHook))!.apiKey).toBe(apiKey);
    expect(rotated).toContain(`/webhook/receive?key=${newHook}`);

    await ownerA.post(`/panel/a/${a.id}/keys/${apiKey}/revoke`, { _csrf: csrf, confirm: '1' });
    expect(await store.credentials.findByApiKey(apiKey)).toBeNull();
  });

  test("test calls: an owner's costs a credit and goes only to a number the account has called; an admin's is free; bad input is a 400", async () => {
    const { a, store, admin, ownerA, config } = await setup({ language: 'en' }, { sip: { server: '127.0.0.1:5060' } });
    const { periodOf } = await import('../../credit');
    const used = () => store.usage.usedIn(a.id, periodOf(Date.now(), config.credit.timezone));
    const path = `/panel/a/${a.id}/test-call`;
    const csrf = await ownerA.csrf(path);
    expect((await ownerA.post(path, { _csrf: csrf, phone_number: '12345', message: 'x' })).status).toBe(400);
    const refused = await ownerA.post(path, { _csrf: csrf, phone_number: '+90 532 123 45 67', message: 'Merhaba' });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('only to numbers this account has called before');
    // The administrator's test call is free and allows the number for the owner.
    const byAdmin = await admin.post(path, { _csrf: await admin.csrf(path), phone_number: '+90 532 123 45 67', message: 'Merhaba' });
    expect(byAdmin.status).toBe(303);
    expect(await used()).toBe(0);
    const res = await ownerA.post(path, { _csrf: csrf, phone_number: '+90 532 123 45 67', message: 'Merhaba' });
    expect(res.status).toBe(303);
    const callId = new URL(res.headers.get('location')!, 'http://localhost').searchParams.get('call')!;
    const call = (await store.calls.get(callId))!;
    expect(call).toMatchObject({ source: 'test', phoneNumber: '5321234567', state: 'queued', credentialId: null, charged: true });
    expect(await store.alerts.get(call.alertId!)).toMatchObject({ source: 'test', accountId: a.id });
    expect(await used()).toBe(1);
    const fragment = await (await ownerA.get(`${path}/${callId}`)).text();
    expect(fragment).toContain('hx-trigger="every 2s"');
    expect(fragment).toContain('data-state="queued"');
  });

  test('with no SIP trunk the panel refuses a test call and says why (503), like the CLI', async () => {
    const { a, store, admin } = await setup({ language: 'en' });
    const path = `/panel/a/${a.id}/test-call`;
    const res = await admin.post(path, { _csrf: await admin.csrf(path), phone_number: '05321234567', message: 'Merhaba' });
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('No SIP trunk is configured');
    expect(await store.calls.list({ limit: 5 })).toEqual([]);
  });

  test('calls are filtered by state and number and paged 25 at a time', async () => {
    const { a, store, ownerA } = await setup();
    const now = Date.now();
    await store.transaction((tx) =>
      tx.calls.enqueue(
        Array.from({ length: 30 }, (_, i) => ({
          accountId: a.id,
          credentialId: null,
          source: 'api' as const,
          phoneNumber: i === 0 ? '5559999999' : '5321234567',
          message: `m${i}`,
        })),
        now,
      ),
    );
    const page1 = await (await ownerA.get(`/panel/a/${a.id}/calls`)).text();
    expect(page1.match(/data-call-id=/g)).toHaveLength(25);
    expect(page1).toContain('rel="next"');
    const page2 = await (await ownerA.get(`/panel/a/${a.id}/calls?page=2`)).text();
    expect(page2.match(/data-call-id=/g)).toHaveLength(5);
    const byNumber = await (await ownerA.get(`/panel/a/${a.id}/calls?number=0555 999`)).text();
    expect(byNumber.match(/data-call-id=/g)).toHaveLength(1);
    const byState = await (await ownerA.get(`/panel/a/${a.id}/calls?state=completed`)).text();
    expect(byState).not.toContain('data-call-id=');
  });

  test('a hand-off call (docs/on-call.md "Hand-off calls") shows as such in the call list', async () => {
    const { a, store, ownerA } = await setup();
    await store.transaction((tx) =>
      tx.calls.enqueue([{ accountId: a.id, credentialId: null, source: 'handoff', phoneNumber: '5321234567', message: 'hand-off call for noc', charged: false, verify: true, handoffId: 'hof_x' }], Date.now()),
    );
    const page = await (await ownerA.get(`/panel/a/${a.id}/calls`)).text();
    expect(page).toContain('<td data-label="Kaynak">Nöbet devri</td>'); // the panel speaks Turkish by default
  });

  test('who answered (docs/telephony.md "Voicemail detection") shows in the call list and on the call\'s page', async () => {
    const { a, store, ownerA } = await setup({ language: 'en' });
    const now = Date.now();
    const [id] = await store.transaction((tx) => tx.calls.enqueue([{ accountId: a.id, credentialId: null, source: 'api', phoneNumber: '5321234567', message: 'm' }], now));
    await store.transaction(async (tx) => {
      await tx.calls.moveAll([{ id: id!, attempt: 0 }], { from: 'queued', to: 'dialing', at: now });
      await tx.calls.moveAll([{ id: id!, attempt: 0 }], { from: 'dialing', to: 'answered', at: now, answered: true, answeredBy: 'machine', amdReason: 'beep' });
    });
    expect(await store.calls.get(id!)).toMatchObject({ answeredBy: 'machine', amdReason: 'beep' });
    expect((await store.calls.events(id!)).at(-1)).toMatchObject({ to: 'answered', answeredBy: 'machine', amdReason: 'beep' });
    const list = await (await ownerA.get(`/panel/a/${a.id}/calls`)).text();
    expect(list).toContain('data-answered-by="machine">a voicemail (beep)</small>');
    const page = await (await ownerA.get(`/panel/a/${a.id}/calls/${id}`)).text();
    expect(page).toMatch(/<dt>Answered by<\/dt>\s*<dd data-answered-by="machine">a voicemail \(beep\)<\/dd>/);
  });

  test('settings mask secrets; the panel speaks English when configured', async () => {
    const { admin, config } = await setup({ language: 'en' });
    (config.sip as { password: string }).password = 'hunter2-trunk-secret';
    const html = await (await admin.get('/panel/settings')).text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('panel.language');
    expect(html).toContain('sip.password');
    expect(html).not.toContain('hunter2-trunk-secret');
    expect(html).toContain('Not configured (sip.server is empty)');
  });

  test('settings show the trunk as the running dialer sees it', async () => {
    const { admin, config, deps } = await setup({ language: 'en' });
    (config.sip as { server: string }).server = '192.0.2.10:5060';
    deps.trunkStatus = () => ({ state: 'up', registered: false, lastError: null, ...noProbe() });
    expect(await (await admin.get('/panel/settings')).text()).toContain('Up: calls are being placed. Not registered with the PBX right now.');
    deps.trunkStatus = () => ({ state: 'starting', registered: null, lastError: 'bind EADDRINUSE 0.0.0.0:5060', ...noProbe() });
    expect(await (await admin.get('/panel/settings')).text()).toContain('Last error: bind EADDRINUSE 0.0.0.0:5060.');
  });

  test('assets are served with their types; pages forbid inline script', async () => {
    const { app, admin } = await setup();
    const js = await app.handle(new Request('http://localhost/panel/assets/htmx.min.js'));
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toContain('javascript');
    expect((await js.text()).length).toBeGreaterThan(10_000);
    expect((await app.handle(new Request('http://localhost/panel/assets/nope.js'))).status).toBe(404);
    const page = await admin.get('/panel/accounts');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('cache-control')).toBe('no-store');
  });
});
