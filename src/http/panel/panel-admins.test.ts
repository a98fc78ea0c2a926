import { describe, expect, test } from 'vitest';
import { browser, panelApp } from '../../../test/helpers/panel-app';

/** The Administrators page (docs/panel.md "Administrators, owners and passwords"): what `admin list|create|passwd` does. */
const PW = 'a-long-password-1';

/**
 * "Oldest first" orders by creation time: a clock that moves on at each reading, so the two
 * administrators made one after the other never share a millisecond (with the tests' cheap
 * argon2, test/helpers/cheap-password-hash.ts, they did: a fresh-clone run of 2026-12-03 listed
 * "second" first).
 */
function everMovingClock(): () => number {
  let last = 0;
  return () => (last = Math.max(Date.now(), last + 1));
}

async function setup(panel = {}) {
  const ctx = await panelApp({ language: 'en', ...panel }, everMovingClock());
  await ctx.users.createAdmin('admin', PW);
  await ctx.users.createAdmin('second', PW);
  const a = await ctx.store.transaction((tx) => tx.accounts.create({ name: 'Acme', plan: 'starter' }));
  const owner = await ctx.users.createOwner(a.id, 'a@acme.test', PW);
  if (!owner.ok) throw new Error(owner.code);
  const admin = browser(ctx.app);
  await admin.login('admin', PW);
  const idOf = async (login: string) => (await ctx.store.panelUsers.findByLogin(login))!.id;
  return { ...ctx, a, ownerId: owner.user.id, admin, idOf };
}

const loginStatus = async (app: Parameters<typeof browser>[0], login: string, password: string) =>
  (await browser(app).login(login, password)).status;

describe('panel: Administrators', () => {
  test('lists every administrator, oldest first, itself marked; the top bar links it for administrators only', async () => {
    const { app, admin } = await setup();
    const page = await admin.get('/panel/admins');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('href="/panel/admins" aria-current="page"');
    const rows = [...html.matchAll(/<tr data-user-id="(usr_[^"]+)">\s*<td[^>]*><span>([^<]+)<\/span>([^<]*)</g)].map((m) => [m[2], m[3]!.trim()]);
    expect(rows).toEqual([
      ['admin', '(you)'],
      ['second', ''],
    ]);
    // One's own row leads to the Password page, not to a reset.
    expect(html).toContain('<a href="/panel/password">Password</a>');
    expect(html.match(/action="\/panel\/admins\/usr_[^"]+\/password"/g)).toHaveLength(1);

    const owner = browser(app);
    await owner.login('a@acme.test', PW);
    expect(await (await owner.get('/panel/overview')).text()).not.toContain('href="/panel/admins"');
  });

  test('an owner is refused every part of it (403); a POST without the CSRF token is refused (403)', async () => {
    const { app, a, admin, idOf } = await setup();
    const owner = browser(app);
    await owner.login('a@acme.test', PW);
    const csrf = await owner.csrf(`/panel/a/${a.id}/keys`);
    expect((await owner.get('/panel/admins')).status).toBe(403);
    expect((await owner.post('/panel/admins', { _csrf: csrf, username: 'sneaky', password: PW })).status).toBe(403);
    const second = await idOf('second');
    expect((await owner.post(`/panel/admins/${second}/password`, { _csrf: csrf, confirm: '1' })).status).toBe(403);
    expect(await loginStatus(app, 'sneaky', PW)).toBe(401);
    expect(await loginStatus(app, 'second', PW)).toBe(303);

    expect((await admin.post('/panel/admins', { username: 'nocsrf', password: PW })).status).toBe(403);
    expect((await admin.post(`/panel/admins/${second}/password`, { confirm: '1' })).status).toBe(403);
    expect(await loginStatus(app, 'nocsrf', PW)).toBe(401);
    expect(await loginStatus(app, 'second', PW)).toBe(303);
  });

  test('creates an administrator who can log in; a bad name, a short password or a taken login is refused, the name kept', async () => {
    const { app, admin } = await setup();
    const csrf = await admin.csrf('/panel/admins');
    const create = (username: string, password: string) => admin.post('/panel/admins', { _csrf: csrf, username, password });

    const bad = await create('a b', PW);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('A user name is 3–64 letters, digits, and . _ @ -');
    const short = await create('third', 'short');
    expect(short.status).toBe(400);
    const shortHtml = await short.text();
    expect(shortHtml).toContain('at least 10 characters');
    expect(shortHtml).toContain('name="username" type="text" required minlength="3" maxlength="64" autocomplete="off" aria-describedby="username_hint" value="third"');
    const taken = await create('SECOND', PW);
    expect(taken.status).toBe(400);
    expect(await taken.text()).toContain('That login already exists.');

    const ok = await create('third', PW);
    expect(ok.status).toBe(200);
    const html = await ok.text();
    expect(html).toContain('Administrator third can now log in.');
    expect(html).toContain('<span>third</span>');
    expect(await loginStatus(app, 'third', PW)).toBe(303);
    const third = browser(app);
    await third.login('third', PW);
    expect((await third.get('/panel/accounts')).status).toBe(200); // an administrator indeed
  });

  test("resets another administrator's password after confirming: shown once, the old one refused, their sessions end", async () => {
    const { app, admin, idOf, store } = await setup();
    const other = browser(app);
    await other.login('second', PW);
    expect((await other.get('/panel/accounts')).status).toBe(200);
    const csrf = await admin.csrf('/panel/admins');
    const path = `/panel/admins/${await idOf('second')}/password`;

    const ask = await admin.post(path, { _csrf: csrf });
    expect(ask.status).toBe(200);
    const question = await ask.text();
    expect(question).toContain('Reset the password of administrator second? Their current password stops working and their sessions end at once');
    expect(question).toContain(`action="${path}"`);
    expect(question).toContain('name="confirm" value="1"');
    expect(question).toContain('href="/panel/admins"');
    expect(await loginStatus(app, 'second', PW)).toBe(303); // nothing changed yet
    expect((await other.get('/panel/accounts')).status).toBe(200);

    const done = await admin.post(path, { _csrf: csrf, confirm: '1' });
    expect(done.status).toBe(200);
    const html = await done.text();
    const shown = /id="reset-password"[^>]*>([^<]+)</.exec(html)![1]!;
    expect(shown).toMatch(/^[0-9A-Za-z]{20}$/);
    expect(html).toContain('New password for second, shown only this once');
    expect(html).toContain('<a href="/panel/admins">Administrators</a>');
    expect((await other.get('/panel/accounts')).status).toBe(303); // their session ended: to the login page
    expect(await loginStatus(app, 'second', PW)).toBe(401);
    expect(await loginStatus(app, 'second', shown)).toBe(303);
    // The one who reset it stays logged in.
    expect((await admin.get('/panel/admins')).status).toBe(200);
    expect((await store.panelUsers.findByLogin('second'))!.passwordHash).toMatch(/^\$argon2id\$/);
  });

  test("one's own password is not reset here (the Password page asks for the current one); an owner's or an unknown id is not found", async () => {
    const { app, admin, idOf, ownerId } = await setup();
    const csrf = await admin.csrf('/panel/admins');
    for (const form of [{ _csrf: csrf }, { _csrf: csrf, confirm: '1' }] as Record<string, string>[]) {
      const own = await admin.post(`/panel/admins/${await idOf('admin')}/password`, form);
      expect(own.status).toBe(400);
      expect(await own.text()).toContain('Your own password is changed on the Password page');
    }
    expect(await loginStatus(app, 'admin', PW)).toBe(303);
    expect((await admin.get('/panel/admins')).status).toBe(200);
    expect((await admin.post(`/panel/admins/${ownerId}/password`, { _csrf: csrf, confirm: '1' })).status).toBe(404);
    expect((await admin.post('/panel/admins/usr_nosuch/password', { _csrf: csrf, confirm: '1' })).status).toBe(404);
    expect(await loginStatus(app, 'a@acme.test', PW)).toBe(303);
  });

  test('in Turkish', async () => {
    const { app } = await setup({ language: 'tr' });
    const admin = browser(app);
    await admin.login('admin', PW);
    const html = await (await admin.get('/panel/admins')).text();
    expect(html).toContain('<title>Yöneticiler');
    expect(html).toContain('Kullanıcı adı');
    expect(html).toContain('(siz)');
    expect(html).toContain('Yeni yönetici');
  });
});
