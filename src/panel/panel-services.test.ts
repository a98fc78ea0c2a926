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
    const s = await store(Date.now);
    const users = createPanelUsersService(s, Date.now);
    const r = await users.createAdmin('Admin', 'long-enough-pw');
    expect(r.ok).toBe(true);
    expect((await s.panelUsers.findByLogin('admin'))!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await users.createAdmin('ADMIN', 'long-enough-pw')).toEqual({ ok: false, code: 'LOGIN_TAKEN' });
    expect(await users.createAdmin('x y', 'long-enough-pw')).toEqual({ ok: false, code: 'INVALID_LOGIN' });
    expect(await users.createAdmin('admin2', 'short')).toEqual({ ok: false, code: 'PASSWORD_TOO_SHORT' });
  });

  test('an administrator always chooses a password (none is generated); an owner without one gets one, shown once', async () => {
    const s = await store(Date.now);
    const users = createPanelUsersService(s, Date.now);
    expect(await users.createAdmin('admin', '')).toEqual({ ok: false, code: 'PASSWORD_TOO_SHORT' });
    const account = await s.transaction((tx) => tx.accounts.create({ name: 'A', plan: 'starter' }));
    const owner = await users.createOwner(account.id, 'o@a.test', '');
    expect(owner.ok && owner.generatedPassword).toHaveLength(20);
    expect(await users.createOwner('acc_missing', 'p@a.test', 'long-enough-pw')).toEqual({ ok: false, code: 'NO_ACCOUNT' });
  });

  test('failures lock the name from that address only; elsewhere the name is slowed, not locked', async () => {
    let now = Date.parse('2026-11-15T12:00:00Z');
    const s = await store(() => now);
    await createPanelUsersService(s, () => now).createAdmin('admin', 'long-enough-pw');
    const waits: number[] = [];
    const login = createLoginService(s, () => now, { maxFailures: 3, windowMs: 60_000, delayMs: 100, delayMaxMs: 1000 }, async (ms) => {
      waits.push(ms);
    });
    for (let i = 0; i < 3; i++) expect((await login.login('admin', 'wrong', '10.0.0.1')).ok).toBe(false);
    expect(waits).toEqual([0, 100, 200]);
    expect(await login.login('admin', 'long-enough-pw', '10.0.0.1')).toMatchObject({ code: 'TOO_MANY_ATTEMPTS', retryAfterS: 60 });
    // Another address, same name: not locked out, only slowed by the name's back-off (3 failures: one step).
    waits.length = 0;
    expect(await login.login('ADMIN', 'long-enough-pw', '10.0.0.2')).toMatchObject({ ok: true });
    expect(waits).toEqual([100]);
    now += 61_000;
    expect(await login.login('admin', 'long-enough-pw', '10.0.0.1')).toMatchObject({ ok: true });
  });

  test('an address spraying one password over many names is refused after three times the limit', async () => {
    const s = await store(Date.now);
    const login = createLoginService(s, Date.now, { maxFailures: 2, windowMs: 60_000, delayMs: 0, delayMaxMs: 0 });
    for (let i = 0; i < 6; i++) expect(await login.login(`user${i}`, 'password-1', '10.0.0.9')).toEqual({ ok: false, code: 'INVALID_CREDENTIALS' });
    expect(await login.login('user7', 'password-1', '10.0.0.9')).toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
    expect(await login.login('user7', 'password-1', '10.0.0.8')).toEqual({ ok: false, code: 'INVALID_CREDENTIALS' });
  });

  test('200 guesses at once: at most the limit are checked, and the right one inside the burst does not log in', async () => {
    const s = await store(Date.now);
    await createPanelUsersService(s, Date.now).createAdmin('admin', 'long-enough-pw');
    // Concurrency limits off: this is the reservation alone (one statement) holding the line.
    const login = createLoginService(s, Date.now, {
      maxFailures: 10,
      windowMs: 60_000,
      delayMs: 0,
      delayMaxMs: 0,
      concurrentPerAddress: 1000,
      concurrentPerName: 1000,
    });
    const guesses = Array.from({ length: 200 }, (_, i) => (i === 150 ? 'long-enough-pw' : `wrong-${i}`));
    const results = await Promise.all(guesses.map((g) => login.login('admin', g, '10.0.0.1')));
    const checked = results.filter((r) => r.ok || r.code === 'INVALID_CREDENTIALS');
    expect(checked).toHaveLength(10);
    expect(results[150]).toMatchObject({ ok: false, code: 'TOO_MANY_ATTEMPTS' });
  });

  test('with the default limits, a burst from one address gets two checks at a time; the rest are refused at once', async () => {
    const s = await store(Date.now);
    await createPanelUsersService(s, Date.now).createAdmin('admin', 'long-enough-pw');
    const login = createLoginService(s, Date.now, { maxFailures: 10, windowMs: 60_000, delayMs: 0, delayMaxMs: 0 });
    const guesses = Array.from({ length: 200 }, (_, i) => (i === 5 ? 'long-enough-pw' : `wrong-${i}`));
    const results = await Promise.all(guesses.map((g) => login.login('admin', g, '10.0.0.1')));
    expect(results.filter((r) => r.ok || r.code === 'INVALID_CREDENTIALS')).toHaveLength(2);
    expect(results[5]).toEqual({ ok: false, code: 'TOO_MANY_ATTEMPTS', retryAfterS: 1 });
    // Nothing stays held: the right password alone logs in afterwards.
    expect(await login.login('admin', 'long-enough-pw', '10.0.0.1')).toMatchObject({ ok: true });
  });

  test('an unknown name is refused like a wrong password', async () => {
    const s = await store(Date.now);
    const login = createLoginService(s, Date.now, { maxFailures: 5, windowMs: 60_000, delayMs: 0, delayMaxMs: 0 });
    expect(await login.login('nobody', 'whatever-pw', '10.0.0.1')).toEqual({ ok: false, code: 'INVALID_CREDENTIALS' });
  });
});
