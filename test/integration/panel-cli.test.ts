import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { verifyPassword } from '../../src/panel';
import { createStore } from '../../src/store';
import { applianceDir } from '../helpers/appliance';
import { BINARY } from '../helpers/paths';

describe('panel users from the command line', () => {
  test('admin create reads the password from stdin and refuses a short one or a taken name', () => {
    const dir = applianceDir();
    const run = (args: string[], input: string) =>
      spawnSync(BINARY, ['--config', dir.configPath, 'admin', 'create', ...args], { cwd: dir.dir, input, encoding: 'utf8' });
    const ok = run(['--username', 'root', '--password-stdin', '--json'], 'a-good-password\n');
    expect(ok.status, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ username: 'root', role: 'admin' });
    const short = run(['--username', 'other', '--password-stdin'], 'short\n');
    expect(short.status).toBe(1);
    expect(short.stderr).toContain('at least 10 characters');
    const taken = run(['--username', 'ROOT', '--password-stdin'], 'a-good-password\n');
    expect(taken.status).toBe(1);
    expect(taken.stderr).toContain('already exists');
  });

  test('admin passwd sets a lost administrator password from stdin; owners and unknown names are refused', async () => {
    const dir = applianceDir();
    const run = (cmd: string, args: string[], input: string) =>
      spawnSync(BINARY, ['--config', dir.configPath, 'admin', cmd, ...args], { cwd: dir.dir, input, encoding: 'utf8' });
    expect(run('create', ['--username', 'root', '--password-stdin'], 'the-old-password\n').status).toBe(0);
    dir.cliJson(['account', 'create', '--name', 'A', '--plan', 'starter', '--owner-email', 'o@a.test']);
    const ok = run('passwd', ['--username', 'ROOT', '--password-stdin', '--json'], 'the-new-password\n');
    expect(ok.status, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ password_changed: true });
    expect(run('passwd', ['--username', 'root', '--password-stdin'], 'short\n').stderr).toContain('at least 10 characters');
    const owner = run('passwd', ['--username', 'o@a.test', '--password-stdin'], 'the-new-password\n');
    expect(owner.status).toBe(1);
    expect(owner.stderr).toContain('no administrator');
    const store = await createStore({ ...dir.store, busyTimeoutMs: 1000, clock: Date.now });
    const hash = (await store.panelUsers.findByLogin('root'))!.passwordHash;
    expect(await verifyPassword('the-new-password', hash)).toBe(true);
    expect(await verifyPassword('the-old-password', hash)).toBe(false);
    await store.close();
  });

  test('admin list: every administrator, oldest first, never an owner or a password (the Administrators page)', () => {
    const dir = applianceDir();
    const create = (username: string) =>
      spawnSync(BINARY, ['--config', dir.configPath, 'admin', 'create', '--username', username, '--password-stdin'], { cwd: dir.dir, input: 'a-good-password\n', encoding: 'utf8' });
    expect(create('root').status).toBe(0);
    expect(create('night.ops').status).toBe(0);
    dir.cliJson(['account', 'create', '--name', 'A', '--plan', 'starter', '--owner-email', 'o@a.test']);
    const admins = dir.cliJson<{ id: string; username: string }[]>(['admin', 'list']);
    expect(admins).toEqual([
      { id: expect.stringMatching(/^usr_/), username: 'root', role: 'admin', created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) },
      { id: expect.stringMatching(/^usr_/), username: 'night.ops', role: 'admin', created_at: expect.any(String) },
    ]);
    expect(JSON.stringify(admins)).not.toContain('argon2');
    const text = dir.cli(['admin', 'list']);
    expect(text.status).toBe(0);
    expect(text.stdout.trimEnd().split('\n').map((l) => l.split('\t').slice(0, 2))).toEqual(admins.map((a) => [a.id, a.username]));
    expect(dir.cli(['admin', 'list', 'extra'])).toMatchObject({ status: 2, stdout: '' });
  });

  test('account create --owner-email prints a generated password once, in the JSON', () => {
    const dir = applianceDir();
    const acc = dir.cliJson(['account', 'create', '--name', 'A', '--plan', 'professional', '--owner-email', 'o@a.test']);
    expect(acc).toMatchObject({ name: 'A', plan: 'professional', monthly_credit: 50, owner_email: 'o@a.test' });
    expect(acc.owner_password).toMatch(/^[0-9A-Za-z]{20}$/);
    const again = dir.cli(['account', 'create', '--name', 'B', '--plan', 'starter', '--owner-email', 'o@a.test']);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('already exists');
    expect(dir.cliJson<unknown[]>(['account', 'list'])).toHaveLength(1);
  });

  test('owner create, list and reset-password: what the Accounts page does; keys list names every set, never a secret', async () => {
    const dir = applianceDir();
    const acc = dir.cliJson(['account', 'create', '--name', 'A', '--plan', 'starter']);
    const made = dir.cliJson(['owner', 'create', acc.id, '--email', 'ops@a.test']);
    expect(made).toMatchObject({ id: expect.any(String), email: 'ops@a.test', account_id: acc.id, role: 'owner' });
    expect(made.password).toMatch(/^[0-9A-Za-z]{20}$/);
    const chosen = spawnSync(BINARY, ['--config', dir.configPath, 'owner', 'create', acc.id, '--email', 'two@a.test', '--password-stdin', '--json'], { cwd: dir.dir, input: 'a-chosen-password\n', encoding: 'utf8' });
    expect(chosen.status, chosen.stderr).toBe(0);
    expect(JSON.parse(chosen.stdout).password).toBeUndefined();
    expect(dir.cliJson<{ email: string }[]>(['owner', 'list', acc.id]).map((o) => o.email)).toEqual(['ops@a.test', 'two@a.test']);
    const taken = dir.cli(['owner', 'create', acc.id, '--email', 'OPS@a.test']);
    expect([taken.status, taken.stderr]).toEqual([1, 'voice-alert: a panel user "OPS@a.test" already exists\n']);
    expect(dir.cli(['owner', 'create', acc.id, '--email', 'not-an-email']).stderr).toContain('not a valid e-mail address');

    const reset = dir.cliJson(['owner', 'reset-password', acc.id, 'two@a.test']);
    expect(reset).toMatchObject({ email: 'two@a.test', password: expect.stringMatching(/^[0-9A-Za-z]{20}$/) });
    const store = await createStore({ ...dir.store, busyTimeoutMs: 1000, clock: Date.now });
    const hash = (await store.panelUsers.findByLogin('two@a.test'))!.passwordHash;
    expect(await verifyPassword(reset.password, hash)).toBe(true);
    expect(await verifyPassword('a-chosen-password', hash)).toBe(false);
    await store.close();
    expect(dir.cli(['owner', 'reset-password', acc.id, 'nobody@a.test']).status).toBe(1);

    const k1 = dir.cliJson(['keys', 'create', acc.id]);
    const k2 = dir.cliJson(['keys', 'create', acc.id, '--require-signature']);
    dir.cliJson(['keys', 'revoke', acc.id, k1.api_key]);
    const keys = dir.cliJson(['keys', 'list', acc.id]);
    expect(keys).toMatchObject([
      { api_key: k1.api_key, account_id: acc.id, require_signature: false, revoked_at: expect.any(String) },
      { api_key: k2.api_key, require_signature: true, revoked_at: null, default_policy_id: null },
    ]);
    expect(JSON.stringify(keys)).not.toContain(k2.api_secret);
    expect(JSON.stringify(keys)).not.toContain(k2.webhook_key);
  }, 90_000); // fifteen runs of the binary one after the other
});
