import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createStore } from '../store';
import { createLoginService, createPanelUsersService, loginDelayMs } from '.';

function store(now: () => number) {
  return createStore({ path: join(mkdtempSync(join(tmpdir(), 'va-svc-')), 'va.db'), busyTimeoutMs: 1000, clock: now });
}

describe('panel services', () => {
  test('the login delay doubles per failure and is capped', () => {
    const o = { delayMs: 250, delayMaxMs: 2000 };
    expect([0, 1, 2, 3, 4, 5, 40].map((n) => loginDelayMs(n, o))).toEqual([0, 250, 500, 1000, 2000, 2000, 2000]);
  });

  test('passwords are stored as argon2id hashes; logins are case-insensitive and unique', async () => {
    const s = store(Date.now);
    const users = createPanelUsersService(s, Date.now);
    const r = await users.createAdmin('Admin', 'long-enough-pw');
    expect(r.ok).toBe(true);
    expect(s.panelUsers.findByLogin('admin')!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await users.createAdmin('ADMIN', 'long-enough-pw')).toEqual({ ok: false, code: 'LOGIN_TAKEN' });
    expect(await users.createAdmin('x y', 'long-enough-pw')).toEqual({ ok: false, code: 'INVALID_LOGIN' });
    expect(await users.createAdmin('admin2', 'short')).toEqual({ ok: false, code: 'PASSWORD_TOO_SHORT' });
  });

  test('an administrator always chooses a password (none is generated); an owner without one gets one, shown once', async () => {
    const s = store(Date.now);
    const users = createPanelUsersService(s, Date.now);
    expect(await users.createAdmin('admin', '')).toEqual({ ok: false, code: 'PASSWORD_TOO_SHORT' });
    const account = s.accounts.create({ name: 'A', plan: 'starter' });
    const owner = await users.createOwner(account.id, 'o@a.test', '');
    expect(owner.ok && owner.generatedPassword).toHaveLength(20);
    expect(await users.createOwner('acc_missing', 'p@a.test', 'long-enough-pw')).toEqual({ ok: false, code: 'NO_ACCOUNT' });
  });

  test('failures are counted per address and per name, waited out, and forgotten after the window', async () => {
    let now = Date.parse('2026-11-15T12:00:00Z');
    const s = store(() => now);
    await createPanelUsersService(s, () => now).createAdmin('admin', 'long-enough-pw');
    const waits: number[] = [];
    const login = createLoginService(s, () => now, { maxFailures: 3, windowMs: 60_000, delayMs: 100, delayMaxMs: 1000 }, async (ms) => {
      waits.push(ms);
    });
    for (let i = 0; i < 3; i++) expect((await login.login('admin', 'wrong', '10.0.0.1')).ok).toBe(false);
    expect(waits).toEqual([0, 100, 200]);
    // Another address, same name: the name's counter still refuses.
    expect(await login.login('admin', 'long-enough-pw', '10.0.0.2')).toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
    now += 61_000;
    expect(await login.login('admin', 'long-enough-pw', '10.0.0.2')).toMatchObject({ ok: true });
  });

  test('an unknown name is refused like a wrong password', async () => {
    const s = store(Date.now);
    const login = createLoginService(s, Date.now, { maxFailures: 5, windowMs: 60_000, delayMs: 0, delayMaxMs: 0 });
    expect(await login.login('nobody', 'whatever-pw', '10.0.0.1')).toEqual({ ok: false, code: 'INVALID_CREDENTIALS' });
  });
});
