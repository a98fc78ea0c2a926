import { describe, expect, test } from 'vitest';
import { manualClock } from '../../../test/helpers/memory-store';
import { browser, panelApp } from '../../../test/helpers/panel-app';
import { createLogger } from '../../log';
import type { Store } from '../../store';

const PW = 'a-long-password-1';

async function setup(more: Record<string, unknown> = {}) {
  const clock = manualClock('2026-11-15T09:00:00Z');
  const ctx = await panelApp({}, clock, undefined, more);
  await ctx.users.createAdmin('admin', PW);
  const a = await ctx.store.transaction((tx) => tx.accounts.create({ name: 'Acme', plan: 'starter' }));
  const b = await ctx.store.transaction((tx) => tx.accounts.create({ name: 'Other', plan: 'starter' }));
  await ctx.users.createOwner(a.id, 'a@acme.test', PW);
  const admin = browser(ctx.app);
  const owner = browser(ctx.app);
  await admin.login('admin', PW);
  await owner.login('a@acme.test', PW);
  return { ...ctx, clock, a, b, admin, owner };
}

/** `n` queued calls of the account, each for an open alert, charged like the intake does. */
async function queue(store: Store, accountId: string, numbers: string[], at: number) {
  return store.transaction(async (tx) => {
    const alertId = await tx.alerts.create({ accountId, credentialId: null, key: null, source: 'api', message: 'Disk dolu' }, at);
    await tx.usage.charge(accountId, '2026-11', numbers.length);
    return tx.calls.enqueue(numbers.map((phoneNumber) => ({ accountId, credentialId: null, source: 'api' as const, phoneNumber, message: 'm', alertId })), at);
  });
}

/** Ends a queued call as the dialer would after one attempt (the store does not check edges; the call model does, above it). */
async function end(store: Store, id: string, to: 'busy' | 'completed' | 'rejected', at: number, sipCode: number, reason: string) {
  expect(await store.transaction((tx) => tx.calls.move(id, { from: 'queued', to, at, attempt: 0, sipCode, reason, finished: true }))).toBe(true);
}

const testId = (html: string, id: string) => new RegExp(`data-testid="${id}"[^>]*>([^<]*)<`).exec(html)?.[1];

describe('panel overview', () => {
  test('admins and owners land on it after login; it is behind the session like every page', async () => {
    const { admin, owner, app } = await setup();
    for (const b of [admin, owner]) {
      expect((await b.get('/panel')).headers.get('location')).toBe('/panel/overview');
      expect((await b.get('/panel/overview')).status).toBe(200);
    }
    expect((await browser(app).get('/panel/overview')).headers.get('location')).toBe('/panel/login');
    expect((await browser(app).get('/panel/overview/live')).headers.get('location')).toBe('/panel/login');
  });

  test("shows the queue, calls in progress, today's outcomes, open alerts and the last failures with SIP reasons; an owner sees only the own account and the credit left", async () => {
    const { admin, owner, store, clock, a, b } = await setup();
    const [a1, a2, a3] = await queue(store, a.id, ['5321111111', '5322222222', '5323333333'], clock());
    await queue(store, b.id, ['5329999999'], clock() - 60_000);
    await end(store, a1!, 'busy', clock(), 486, 'Busy Here');
    await end(store, a2!, 'completed', clock(), 200, 'answered (PCMU)');
    await store.transaction((tx) => tx.calls.move(a3!, { from: 'queued', to: 'dialing', at: clock(), attempt: 0 }));
    // A call that ended yesterday (Istanbul time) is not today's.
    const [old] = await queue(store, a.id, ['5324444444'], Date.parse('2026-11-14T10:00:00Z'));
    await end(store, old!, 'rejected', Date.parse('2026-11-14T10:01:00Z'), 603, 'Decline');

    const all = await (await admin.get('/panel/overview')).text();
    expect(testId(all, 'queued')).toBe('1');
    expect(testId(all, 'in-progress')).toBe('1');
    expect(testId(all, 'oldest-queued')).toBe('60 sn');
    expect(testId(all, 'open-alerts')).toBe('3');
    expect(testId(all, 'credit-left')).toBeUndefined();
    expect(all).toMatch(/data-state="busy">1</);
    expect(all).toMatch(/data-state="completed">1</);
    expect(all).not.toMatch(/data-state="rejected">\d+</);
    // Failures newest first, each with its SIP code and reason and a link to the call.
    const failures = all.slice(all.indexOf('id="failures-table"'));
    expect(failures.indexOf('Busy Here')).toBeLessThan(failures.indexOf('Decline'));
    expect(failures).toContain('486');
    expect(failures).toContain(`/panel/a/${a.id}/calls/${a1}`);

    const own = await (await owner.get('/panel/overview')).text();
    expect(testId(own, 'queued')).toBe('0');
    expect(testId(own, 'open-alerts')).toBe('2');
    // starter's monthly credit less the 4 calls charged this month.
    expect(testId(own, 'credit-left')).toBe(`${a.monthlyCredit - 4} / ${a.monthlyCredit}`);
    expect(own).not.toContain('5329999999');
  });

  test('the trunk: not configured, then the last SIP answer; the live part is an htmx fragment polled every 5 s', async () => {
    const { admin, store, clock, a } = await setup();
    const page = await (await admin.get('/panel/overview')).text();
    expect(page).toMatch(/data-testid="trunk-state" data-state="not_configured"/);
    expect(page).toMatch(/hx-get="\/panel\/overview\/live" hx-trigger="every 5s"/);
    const [id] = await queue(store, a.id, ['5321111111'], clock());
    clock.advance(5_000);
    await end(store, id!, 'busy', clock(), 486, 'Busy Here');
    const live = await admin.get('/panel/overview/live');
    const html = await live.text();
    expect(live.status).toBe(200);
    expect(html.startsWith('<div id="overview-live"')).toBe(true);
    expect(html).toMatch(/data-testid="last-sip"><span>486 Busy Here<\/span>/);
  });

  test('a running trunk shows its state; the configured-but-not-here trunk says so', async () => {
    const { admin } = await setup({ sip: { server: '127.0.0.1:5060' } });
    expect(await (await admin.get('/panel/overview')).text()).toMatch(/data-state="unknown"/);
  });

  test('the language switch: a link on every page, remembered in a cookie, the pages follow it', async () => {
    const { owner, a } = await setup();
    const before = await (await owner.get(`/panel/a/${a.id}/keys`)).text();
    expect(before).toContain('href="/panel/language/en"');
    expect(before).toContain('<html lang="tr"');
    const res = await owner.get('/panel/language/en');
    expect(res.status).toBe(303);
    expect(res.headers.get('set-cookie')).toMatch(/^va_lang=en; Path=\/panel; HttpOnly; SameSite=Lax; Max-Age=31536000$/);
    const after = await (await owner.get(`/panel/a/${a.id}/keys`)).text();
    expect(after).toContain('<html lang="en"');
    expect(await (await owner.get('/panel/overview')).text()).toContain('Calls in progress');
    // An unknown language changes nothing.
    expect((await owner.get('/panel/language/xx')).headers.get('set-cookie')).toBeNull();
    // Logged out, the login page still speaks the chosen language (the cookie outlives the session).
    const csrf = await owner.csrf('/panel/overview');
    await owner.post('/panel/logout', { _csrf: csrf });
    const login = await (await owner.get('/panel/login')).text();
    expect(login).toContain('<html lang="en"');
    expect(login).toContain('href="/panel/language/tr"'); // the switch is there before logging in too
  });

  test('the language is remembered per user: it follows them to another browser, and a shared browser speaks each one\'s own', async () => {
    const { owner, users, a, app, store } = await setup();
    await users.createOwner(a.id, 'b@acme.test', PW);
    await owner.get('/panel/language/en'); // a@acme.test chooses English
    expect((await store.panelUsers.findByLogin('a@acme.test'))!.language).toBe('en');
    // A new browser knows nobody yet: the configured language.
    const fresh = browser(app);
    expect(await (await fresh.get('/panel/login')).text()).toContain('<html lang="tr"');
    // The same person on it: English, and the cookie follows.
    const login = await fresh.login('a@acme.test', PW);
    expect(login.headers.getSetCookie().some((c) => c.startsWith('va_lang=en;'))).toBe(true);
    expect(await (await fresh.get(`/panel/a/${a.id}/keys`)).text()).toContain('<html lang="en"');
    // b@acme.test chose Turkish on their own browser…
    const bBrowser = browser(app);
    await bBrowser.login('b@acme.test', PW);
    await bBrowser.get('/panel/language/tr');
    // …and logs in on a's browser, whose cookie says English: b's pages speak Turkish.
    const csrf = await fresh.csrf('/panel/overview');
    await fresh.post('/panel/logout', { _csrf: csrf });
    await fresh.login('b@acme.test', PW);
    expect(await (await fresh.get(`/panel/a/${a.id}/keys`)).text()).toContain('<html lang="tr"');
  });

  test('every page has a favicon the CSP allows (a data: image)', async () => {
    const { admin } = await setup();
    const res = await admin.get('/panel/overview');
    expect(await res.text()).toMatch(/<link rel="icon" type="image\/svg\+xml" href="data:image\/svg\+xml,/);
    expect(res.headers.get('content-security-policy')).toContain("img-src 'self' data:");
  });

  test('one log line per panel write: who and what, never the form', async () => {
    const { owner, a, deps } = await setup();
    const lines: Record<string, unknown>[] = [];
    deps.log = createLogger('info', { write: (l: string) => void lines.push(JSON.parse(l)) });
    const csrf = await owner.csrf(`/panel/a/${a.id}/keys`);
    const res = await owner.post(`/panel/a/${a.id}/keys`, { _csrf: csrf });
    await owner.get(`/panel/a/${a.id}/keys`);
    const actions = lines.filter((l) => l.msg === 'panel action');
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatchObject({ login: 'a@acme.test', role: 'owner', method: 'POST', path: `/panel/a/${a.id}/keys`, status: res.status });
    expect(JSON.stringify(actions[0])).not.toContain(csrf);
  });
});
