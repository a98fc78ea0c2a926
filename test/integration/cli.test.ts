import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { applianceDir } from '../helpers/appliance';
import { BINARY } from '../helpers/paths';

describe('voice-alert CLI (docs/cli.md "Accounts and keys", stable for scripts)', () => {
  it('account create / set-plan print the contract JSON', () => {
    const dir = applianceDir();
    const acc = dir.cliJson(['account', 'create', '--name', 'NOC', '--plan', 'starter']);
    expect(acc).toEqual({ id: expect.stringMatching(/^acc_/), name: 'NOC', plan: 'starter', monthly_credit: 15, disabled: false });
    const big = dir.cliJson(['account', 'create', '--name', 'Big', '--plan', 'enterprise', '--monthly-credit', '250']);
    expect(big).toMatchObject({ plan: 'enterprise', monthly_credit: 250 });
    expect(dir.cliJson(['account', 'set-plan', acc.id, 'professional'])).toMatchObject({ id: acc.id, plan: 'professional', monthly_credit: 50 });
  });

  it('keys create / revoke and credit show', () => {
    const dir = applianceDir();
    const acc = dir.cliJson(['account', 'create', '--name', 'NOC', '--plan', 'starter']);
    const k = dir.cliJson(['keys', 'create', acc.id]);
    expect(Object.keys(k).sort()).toEqual(['api_key', 'api_secret', 'webhook_key']);
    expect(dir.cliJson(['keys', 'revoke', k.api_key])).toEqual({ api_key: k.api_key, revoked: true });
    expect(dir.cliJson(['credit', 'show', acc.id])).toEqual({
      period: expect.stringMatching(/^\d{4}-\d{2}$/),
      monthly_credit: 15,
      used: 0,
      remaining: 15,
    });
    expect(dir.cliJson(['calls', 'list'])).toEqual([]);
  });

  it('errors go to stderr with a non-zero exit and nothing on stdout', () => {
    const dir = applianceDir();
    for (const args of [
      ['credit', 'show', 'acc_missing', '--json'],
      ['account', 'create', '--name', 'x', '--plan', 'gold', '--json'],
      ['keys', 'revoke', 'vak_missing', '--json'],
    ]) {
      const r = dir.cli(args);
      expect(r.status).not.toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^voice-alert: /);
    }
  });

  it('a bad configuration stops start-up with one line naming key, value and reason, exit 2', () => {
    const r = spawnSync(BINARY, ['serve'], {
      env: { ...process.env, VOICE_ALERT_HTTP_LISTEN: 'localhost', VOICE_ALERT_CONFIG: '/nonexistent/none.toml' },
      encoding: 'utf8',
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/cannot read \/nonexistent\/none\.toml/);
    const dir = applianceDir();
    const bad = spawnSync(BINARY, ['--config', dir.configPath, 'serve'], {
      env: { ...process.env, VOICE_ALERT_HTTP_RATE_LIMIT_PER_MINUTE: '-5' },
      encoding: 'utf8',
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toMatch(/^voice-alert: invalid configuration: http\.rate_limit_per_minute = -5: /);
    // A variable that names no key: refused like an unknown key in the file, not ignored.
    const typo = spawnSync(BINARY, ['--config', dir.configPath, 'serve'], {
      env: { ...process.env, VOICE_ALERT_HTTP_LISTN: '127.0.0.1:0' },
      encoding: 'utf8',
    });
    expect(typo.status).toBe(2);
    expect(typo.stderr).toBe('voice-alert: invalid configuration: VOICE_ALERT_HTTP_LISTN: unknown key\n');
  });

  it('refuses to serve without espeak-ng, naming the Debian package, exit 2', () => {
    const dir = applianceDir({ tts: { espeak_binary: '/nonexistent/espeak-ng' } });
    const r = dir.cli(['serve']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^voice-alert: espeak-ng cannot run .*apt-get install espeak-ng\n$/);
  });

  it('refuses a database newer than the program, exit 2', async () => {
    const dir = applianceDir();
    dir.cliJson(['account', 'create', '--name', 'NOC', '--plan', 'starter']); // makes the database
    const db = dir.database();
    await db.run(db.dialect === 'postgres' ? 'INSERT INTO schema_version (version) VALUES (999)' : 'PRAGMA user_version = 999');
    await db.close();
    const r = dir.cli(['account', 'list', '--json']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/newer than this program/);
  });

  it('backup and restore refuse a PostgreSQL store, pointing at its own tools, before connecting to it', () => {
    const dir = applianceDir({ store: { url: 'postgres://nobody@127.0.0.1:9/none' } });
    for (const args of [['backup', `${dir.dir}/copy`], ['restore', `${dir.dir}/copy`]]) {
      const r = dir.cli(args);
      expect(r.status).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/store\.url is set: the store is PostgreSQL.*pg_dump.*secret\.key/);
    }
  });

  it('version prints the version', () => {
    const r = spawnSync(BINARY, ['version'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^voice-alert \d+\.\d+\.\d+\n$/);
  });

  it('serve --demo-account creates and prints a working demo account once, on an empty database', async () => {
    const dir = applianceDir();
    const app = await dir.start(['--demo-account']);
    await app.stop();
    const printed = app.output();
    expect(printed).toMatch(/demo Starter account/);
    const key = /webhook_key: (\S+)/.exec(printed)![1]!;
    expect(printed).toContain(`curl -s 'http://127.0.0.1:`);
    const again = await dir.start(['--demo-account']);
    try {
      expect(again.output()).not.toMatch(/demo Starter account/);
      const r = await fetch(`${again.url}/webhook/receive?key=${key}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ phone_number: '5321234567', error_message: 'test' }),
      });
      expect(r.status).toBe(200);
    } finally {
      await again.stop();
    }
    expect(dir.cliJson(['account', 'list'])).toHaveLength(1);
  });
});
