import { describe, expect, test } from 'vitest';
import { browser, panelApp } from '../../../test/helpers/panel-app';

const ADMIN_PW = 'correct horse battery';

async function withAdmin(panel = {}) {
  const ctx = await panelApp(panel);
  const r = await ctx.users.createAdmin('admin', ADMIN_PW);
  expect(r.ok).toBe(true);
  return ctx;
}

describe('panel login', () => {
  test('an unauthenticated page view goes to the login page', async () => {
    const { app } = await withAdmin();
    const res = await browser(app).get('/panel/accounts');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/panel/login');
  });

  test('the right password starts a session with a strict HttpOnly cookie; logout ends it', async () => {
    const { app } = await withAdmin();
    const b = browser(app);
    const res = await b.login('admin', ADMIN_PW);
    expect(res.status).toBe(303);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('va_session='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).not.toMatch(/Secure/); // plain http
    const page = await b.get('/panel/accounts');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Hesaplar'); // default language tr

    const csrf = await b.csrf('/panel/accounts');
    const out = await b.post('/panel/logout', { _csrf: csrf });
    expect(out.status).toBe(303);
    expect((await b.get('/panel/accounts')).status).toBe(303);
  });

  test('the cookie is Secure when the request came over TLS through a trusted proxy', async () => {
    const { app, config } = await withAdmin();
    (config.http as { trust_proxy: boolean }).trust_proxy = true;
    const b = browser(app);
    const token = await b.csrf('/panel/login');
    const res = await app.handle(
      new Request('http://localhost/panel/login', {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-forwarded-proto': 'https',
          cookie: `va_login_csrf=${b.jar.get('va_login_csrf')}`,
        },
        body: new URLSearchParams({ _csrf: token, login: 'admin', password: ADMIN_PW }).toString(),
      }),
    );
    expect(res.status).toBe(303);
    expect(res.headers.getSetCookie().find((c) => c.startsWith('va_session='))).toMatch(/; Secure/);
  });

  test('a wrong password is refused, and after the limit even the right one is refused for a while', async () => {
    const { app } = await withAdmin({ login_max_failures: 3 });
    const b = browser(app);
    for (let i = 0; i < 3; i++) expect((await b.login('admin', 'wrong password!')).status).toBe(401);
    const locked = await b.login('admin', ADMIN_PW);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  test('a login POST without the login CSRF token is refused', async () => {
    const { app } = await withAdmin();
    const res = await browser(app).post('/panel/login', { login: 'admin', password: ADMIN_PW });
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie().some((c) => c.startsWith('va_session='))).toBe(false);
  });

  test('a state-changing POST without or with a wrong CSRF token is refused and changes nothing', async () => {
    const { app, store } = await withAdmin();
    const b = browser(app);
    await b.login('admin', ADMIN_PW);
    expect((await b.post('/panel/accounts', { name: 'x', plan: 'starter' })).status).toBe(403);
    expect((await b.post('/panel/accounts', { name: 'x', plan: 'starter', _csrf: 'nope' })).status).toBe(403);
    expect(await store.accounts.count()).toBe(0);
    const ok = await b.post('/panel/accounts', { name: 'x', plan: 'starter', _csrf: await b.csrf('/panel/accounts') });
    expect(ok.status).toBe(200);
    expect(await store.accounts.count()).toBe(1);
  });

  test('an idle session expires', async () => {
    let now = Date.parse('2026-11-15T12:00:00Z');
    const ctx = await panelApp({ session_idle_min: 5 }, () => now);
    await ctx.users.createAdmin('admin', ADMIN_PW);
    const b = browser(ctx.app);
    await b.login('admin', ADMIN_PW);
    expect((await b.get('/panel/accounts')).status).toBe(200);
    now += 6 * 60_000;
    expect((await b.get('/panel/accounts')).status).toBe(303);
  });
});
