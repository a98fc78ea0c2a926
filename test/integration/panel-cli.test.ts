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
});
