import { describe, expect, test } from 'vitest';
import { manualClock } from '../../../test/helpers/memory-store';
import { browser, panelApp } from '../../../test/helpers/panel-app';

// docs/telephony.md "Voice-path self-test": the administrator's Trunks page and "run self-test now".
const PW = 'a-long-password-1';
const SIP = { trunks: [{ name: 'pbx', server: '127.0.0.1:5070' }, { name: 'carrier', server: '127.0.0.1:5080' }] };

async function setup(selfTest: Record<string, unknown>) {
  const clock = manualClock('2026-11-25T09:00:00Z');
  const ctx = await panelApp({ language: 'en' }, clock, undefined, { sip: SIP, self_test: selfTest });
  await ctx.users.createAdmin('admin', PW);
  const admin = browser(ctx.app);
  await admin.login('admin', PW);
  return { ...ctx, clock, admin, csrf: await admin.csrf('/panel/trunks') };
}

describe('panel: trunks and the self-test', () => {
  test('every trunk with its newest self-test; "run self-test now" makes its row due for the server\'s scheduler', async () => {
    const { admin, csrf, store, clock } = await setup({ number: '600', interval_s: 0 });
    await store.transaction((tx) =>
      tx.selfTests.add({ trunk: 'pbx', number: '600', expect: 'echo', ok: false, reason: 'no echo: no RTP at all came back (50 frames sent)', echoRatio: 0, origin: 'schedule', startedAt: clock() - 2000, finishedAt: clock() }),
    );
    const html = await (await admin.get('/panel/trunks')).text();
    expect([...html.matchAll(/<tr data-trunk="([^"]+)">/g)].map((m) => m[1])).toEqual(['pbx', 'carrier']);
    expect(html).toMatch(/data-testid="last-self-test-pbx"[^>]*><span class="badge bad" data-state="failed">Failed<\/span> <span>[^<]*no echo: no RTP at all came back/);
    expect(html).toMatch(/data-testid="last-self-test-carrier"[^>]*>never run</);
    expect(html).toContain('action="/panel/trunks/carrier/self-test"');

    expect(await store.selfTests.anyDue(clock())).toBe(false);
    const r = await admin.post('/panel/trunks/carrier/self-test', { _csrf: csrf });
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe('/panel/trunks?asked=carrier');
    expect(await store.selfTests.anyDue(clock())).toBe(true);
    expect(await store.transaction((tx) => tx.selfTests.claim('carrier', clock(), { owner: 'x', ms: 60_000 }))).toBe(true);
    expect(await (await admin.get('/panel/trunks?asked=carrier')).text()).toContain('Self-test asked for on carrier');
    // The live part alone, for htmx.
    const live = await (await admin.get('/panel/trunks/live')).text();
    expect(live.startsWith('<div id="trunks-live"')).toBe(true);
  });

  test('the second path below the trunks: how texts go, each modem\'s state, SIM, network, signal and last error, and the e-mail relay (docs/second-path.md "Operations")', async () => {
    const { admin, deps } = await setup({ number: '600' });
    expect(await (await admin.get('/panel/trunks')).text()).toContain('The second path does not run in this process');
    deps.smsStatus = () => ({
      via: 'modem',
      state: 'up',
      email: 'none',
      modems: [
        { name: 'gsm0', device: '/dev/ttyUSB2', state: 'ready', sim: 'READY', registration: { stat: 1, registered: true, text: 'registered, home network' }, signal: { rssi: 21, dbm: -71 }, lastError: null },
        { name: 'gsm<1>', device: '/dev/ttyUSB3', state: 'lost', sim: null, registration: null, signal: null, lastError: 'the device went away' },
      ],
    });
    const html = await (await admin.get('/panel/trunks')).text();
    expect(html).toContain('data-testid="second-path" data-via="modem" data-state="up"');
    expect(html).toContain('Texts go through the GSM modems');
    expect(html).toMatch(/<tr data-modem="gsm0">.*\/dev\/ttyUSB2.*data-state="ready".*READY.*registered, home network.*-71 dBm.*—<\/td><\/tr>/s);
    // A name from the configuration is shown as text.
    expect(html).toMatch(/<td data-label="Modem">gsm&lt;1&gt;<\/td>.*data-state="lost".*the device went away/s);
    expect(html).toContain('E-mail: no relay is set');
    deps.smsStatus = () => ({ via: 'sip', state: 'up', email: 'configured', modems: [] });
    const sip = await (await admin.get('/panel/trunks')).text();
    expect(sip).toContain('Texts go as SIP MESSAGE through the trunks above');
    expect(sip).toContain('E-mail: the relay is set');
  });

  test('refused: a trunk self-tests do not run on, an unknown one (404), an owner (403), no CSRF token (403)', async () => {
    const on = await setup({ number: '600', trunk: 'pbx' });
    expect((await on.admin.post('/panel/trunks/carrier/self-test', { _csrf: on.csrf })).status).toBe(404);
    expect((await on.admin.post('/panel/trunks/nope/self-test', { _csrf: on.csrf })).status).toBe(404);
    expect((await on.admin.post('/panel/trunks/pbx/self-test', {})).status).toBe(403);
    const a = await on.store.transaction((tx) => tx.accounts.create({ name: 'Acme', plan: 'starter' }));
    await on.users.createOwner(a.id, 'a@acme.test', PW);
    const owner = browser(on.app);
    await owner.login('a@acme.test', PW);
    expect((await owner.get('/panel/trunks')).status).toBe(403);
    expect((await owner.post('/panel/trunks/pbx/self-test', { _csrf: await owner.csrf('/panel/overview') })).status).toBe(403);
    expect(await on.store.selfTests.anyDue(on.clock() + 1000)).toBe(false);
  });

  test('with self_test.number empty the button is not offered and a forced POST is 409', async () => {
    const off = await setup({ number: '' });
    expect(await (await off.admin.get('/panel/trunks')).text()).not.toContain('/self-test"');
    const r = await off.admin.post('/panel/trunks/pbx/self-test', { _csrf: off.csrf });
    expect(r.status).toBe(409);
    expect(await r.text()).toContain('Self-tests are off');
  });
});
