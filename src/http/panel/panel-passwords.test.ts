import { describe, expect, test } from 'vitest';
import { browser, panelApp } from '../../../test/helpers/panel-app';

const PW = 'a-long-password-1';
const NEW_PW = 'another-long-password-2';

async function setup(panel = {}) {
  const ctx = await panelApp({ language: 'en', ...panel });
  await ctx.users.createAdmin('admin', PW);
  const a = await ctx.store.transaction((tx) => tx.accounts.create({ name: 'Acme', plan: 'starter' }));
  const b = await ctx.store.transaction((tx) => tx.accounts.create({ name: 'Other', plan: 'starter' }));
  const owner = await ctx.users.createOwner(a.id, 'a@acme.test', PW);
  if (!owner.ok) throw new Error(owner.code);
  const admin = browser(ctx.app);
  await admin.login('admin', PW);
  return { ...ctx, a, b, ownerId: owner.user.id, admin };
}

const loginStatus = async (app: Parameters<typeof browser>[0], login: string, password: string) =>
  (await browser(app).login(login, password)).status;

describe('panel passwords', () => {
  test('a user changes their own password with the current one; their other sessions end, this one stays', async () => {
    const { app, store } = await setup();
    const here = browser(app);
    const elsewhere = browser(app);
    await here.login('a@acme.test', PW);
    await elsewhere.login('a@acme.test', PW);
    const csrf = await here.csrf('/panel/password');
    const post = (form: Record<string, string>) => here.post('/panel/password', { _csrf: csrf, ...form });
    const wrong = await post({ current_password: 'not-the-password', new_password: NEW_PW, new_password_again: NEW_PW });
    expect(wrong.status).toBe(403);
    expect(await wrong.text()).toContain('The current password is not right.');
    expect((await post({ current_password: PW, new_password: NEW_PW, new_password_again: 'something-else-3' })).status).toBe(400);
    expect((await post({ current_password: PW, new_password: 'short', new_password_again: 'short' })).status).toBe(400);
    const ok = await post({ current_password: PW, new_password: NEW_PW, new_password_again: NEW_PW });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('Your password has been changed.');
    expect((await here.get('/panel/password')).status).toBe(200);
    expect((await elsewhere.get('/panel/password')).status).toBe(303); // back to the login page
    expect(await loginStatus(app, 'a@acme.test', PW)).toBe(401);
    expect(await loginStatus(app, 'a@acme.test', NEW_PW)).toBe(303);
    expect((await store.panelUsers.findByLogin('a@acme.test'))!.passwordHash).toMatch(/^\$argon2id\$/);
  });

  test('guessing the current password through a session is throttled like a login', async () => {
    const { app } = await setup({ login_max_failures: 3 });
    const owner = browser(app);
    await owner.login('a@acme.test', PW);
    const csrf = await owner.csrf('/panel/password');
    const guess = (current: string) =>
      owner.post('/panel/password', { _csrf: csrf, current_password: current, new_password: NEW_PW, new_password_again: NEW_PW });
    for (let i = 0; i < 3; i++) expect((await guess(`guess-number-${i}`)).status).toBe(403);
    const refused = await guess(PW);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  test("an administrator resets an owner's password after confirming: shown once, the owner's sessions end", async () => {
    const { app, a, b, ownerId, admin, store } = await setup();
    const owner = browser(app);
    await owner.login('a@acme.test', PW);
    const csrf = await admin.csrf('/panel/accounts');
    const path = `/panel/accounts/${a.id}/owners/${ownerId}/password`;
    const ask = await admin.post(path, { _csrf: csrf });
    expect(ask.status).toBe(200);
    const question = await ask.text();
    expect(question).toContain('Their current password stops working and their sessions end at once');
    expect(question).toContain('name="confirm" value="1"');
    expect(await loginStatus(app, 'a@acme.test', PW)).toBe(303); // nothing changed yet

    const done = await admin.post(path, { _csrf: csrf, confirm: '1' });
    expect(done.status).toBe(200);
    const shown = /id="reset-password"[^>]*>([^<]+)</.exec(await done.text())![1]!;
    expect(shown).toMatch(/^[0-9A-Za-z]{20}$/);
    expect((await owner.get(`/panel/a/${a.id}/keys`)).status).toBe(303);
    expect(await loginStatus(app, 'a@acme.test', PW)).toBe(401);
    expect(await loginStatus(app, 'a@acme.test', shown)).toBe(303);
    // Not the owner of the account in the path, or an administrator: not found.
    expect((await admin.post(`/panel/accounts/${b.id}/owners/${ownerId}/password`, { _csrf: csrf, confirm: '1' })).status).toBe(404);
    const adminId = (await store.panelUsers.findByLogin('admin'))!.id;
    expect((await admin.post(`/panel/accounts/${a.id}/owners/${adminId}/password`, { _csrf: csrf, confirm: '1' })).status).toBe(404);
  });

  test('an owner cannot reset passwords', async () => {
    const { app, a, ownerId } = await setup();
    const owner = browser(app);
    await owner.login('a@acme.test', PW);
    const csrf = await owner.csrf(`/panel/a/${a.id}/keys`);
    expect((await owner.post(`/panel/accounts/${a.id}/owners/${ownerId}/password`, { _csrf: csrf, confirm: '1' })).status).toBe(403);
  });

  test('revoke, rotate and disable first ask, saying what will break; only the confirmed POST acts', async () => {
    const { a, store, admin } = await setup();
    const k = await store.transaction((tx) => tx.credentials.create(a.id));
    const keys = `/panel/a/${a.id}/keys`;
    const csrf = await admin.csrf(keys);

    const revoke = await admin.post(`${keys}/${k.apiKey}/revoke`, { _csrf: csrf });
    expect(revoke.status).toBe(200);
    expect(await revoke.text()).toContain('every tool that sends alerts with them gets 403');
    const rotate = await admin.post(`${keys}/${k.apiKey}/rotate`, { _csrf: csrf });
    expect(await rotate.text()).toContain('The old webhook URL stops working at once');
    expect((await store.credentials.findByWebhookKey(k.webhookKey))?.apiKey).toBe(k.apiKey);

    const disable = await admin.post(`/panel/accounts/${a.id}/disabled`, { _csrf: csrf, disabled: '1' });
    const question = await disable.text();
    expect(question).toContain('All its API and webhook requests are refused (403)');
    expect(question).toContain('name="disabled" value="1"');
    expect((await store.accounts.get(a.id))!.disabled).toBe(false);

    expect((await admin.post(`${keys}/${k.apiKey}/rotate`, { _csrf: csrf, confirm: '1' })).status).toBe(200);
    expect(await store.credentials.findByWebhookKey(k.webhookKey)).toBeNull();
    expect((await admin.post(`${keys}/${k.apiKey}/revoke`, { _csrf: csrf, confirm: '1' })).status).toBe(303);
    expect(await store.credentials.findByApiKey(k.apiKey)).toBeNull();
    expect((await admin.post(`/panel/accounts/${a.id}/disabled`, { _csrf: csrf, disabled: '1', confirm: '1' })).status).toBe(303);
    expect((await store.accounts.get(a.id))!.disabled).toBe(true);
    // Enabling breaks nothing: no question.
    expect((await admin.post(`/panel/accounts/${a.id}/disabled`, { _csrf: csrf, disabled: '0' })).status).toBe(303);
    expect((await store.accounts.get(a.id))!.disabled).toBe(false);
  });
});
