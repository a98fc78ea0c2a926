import { spawn, spawnSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applianceDir, provision } from '../helpers/appliance';
import { BINARY, ROOT } from '../helpers/paths';

/** Issue 49 §3 "The first hour": what a new operator sees and types, run as printed. */
describe('the first hour (docs/operations.md "First start")', () => {
  it('serve names the panel URL and the command that makes the first administrator, which works as printed', async () => {
    const dir = applianceDir();
    const app = await dir.start();
    await app.stop();
    const printed = app.output();
    expect(printed).toContain(`Panel: ${app.url}/panel`);
    const command = /^ {2}(.+ admin create --username admin --password-stdin)$/m.exec(printed)?.[1];
    expect(command).toContain(`--config ${dir.configPath}`);
    // Run from another folder, through a shell, exactly as printed: it must reach the same database.
    const r = spawnSync('sh', ['-c', command!], { cwd: '/', input: 'a long enough password\n', encoding: 'utf8' });
    expect(r.stderr + r.stdout).toContain('created administrator admin');
    expect(r.status).toBe(0);
    const again = await dir.start();
    await again.stop();
    expect(again.output()).not.toContain('No administrator yet');
  });

  it('URLs the CLI prints are absolute and reach the server as printed: the address it listens on, not the configured port 0', async () => {
    const dir = applianceDir(); // http.listen = 127.0.0.1:0: the kernel picks the port
    const acc = provision(dir);
    const app = await dir.start();
    try {
      const layers = [{ participants: [{ name: 'Ayşe', number: '5321111111' }], shift: '7d', start: '2026-11-02T09:00' }];
      const schedule = dir.cliJson(['schedule', 'create', acc.accountId, '--name', 'noc', '--time-zone', 'Europe/Istanbul', '--layers', JSON.stringify(layers)]);
      expect(schedule.ics_url.startsWith(`${app.url}/schedules/`)).toBe(true);
      expect((await fetch(schedule.ics_url)).status).toBe(200);
      const hb = dir.cliJson(['heartbeat', 'create', acc.accountId, '--name', 'backup', '--interval-s', '600', '--to', '5321234567']);
      expect(hb.ping_url).toMatch(/^\/heartbeat\/[0-9A-Za-z]{32}$/); // the contract's path, kept
      expect(hb.ping_full_url).toBe(app.url + hb.ping_url);
      expect((await fetch(hb.ping_full_url, { method: 'POST' })).status).toBe(200);
      const text = dir.cli(['heartbeat', 'create', acc.accountId, '--name', 'cron', '--interval-s', '600', '--to', '5321234567']);
      expect(text.stdout).toMatch(new RegExp(`^ping URL \\(shown only now\\): ${app.url.replace(/[.]/g, '\\.')}/heartbeat/[0-9A-Za-z]{32}$`, 'm'));
    } finally {
      await app.stop();
    }
    // After a stop: still where the server listened (its next start listens there too unless the config changed).
    expect(dir.cliJson(['schedule', 'show', acc.accountId, 'noc']).ics_url.startsWith(`${app.url}/schedules/`)).toBe(true);
  }, 120_000);

  it('test-call through a trunk that never answers says "trunk did not answer", not a callee\'s NO_ANSWER 487', async () => {
    // A SIP server that takes every datagram and says nothing: a dead PBX that still has its port.
    const silent = createSocket('udp4');
    let heard = 0;
    silent.on('message', () => heard++);
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    try {
      const dir = applianceDir({ sip: { server: `127.0.0.1:${silent.address().port}` } });
      // Asynchronous: the silent socket must keep running on this process's loop meanwhile.
      const child = spawn(BINARY, ['--config', dir.configPath, 'test-call', '5321234567', 'hello', '--ring-timeout', '2'], { cwd: dir.dir });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      const status = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(heard).toBeGreaterThan(0);
      expect(stdout.trim().split('\n').at(-1)).toBe('trunk did not answer: no response to the INVITE within ring timeout');
      expect(stderr).toBe('voice-alert: the call was not answered: trunk did not answer: no response to the INVITE within ring timeout\n');
      expect(status).toBe(1);
    } finally {
      silent.close();
    }
  }, 60_000);

  it('an alert call through a trunk that never answers ends no_answer saying "trunk did not answer", in its JSON and in calls show', async () => {
    const silent = createSocket('udp4');
    silent.on('message', () => {});
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    try {
      const dir = applianceDir({ sip: { server: `127.0.0.1:${silent.address().port}`, invite_timeout_s: 1 }, calls: { max_attempts: 1 } });
      const acc = provision(dir);
      const app = await dir.start();
      try {
        const r = await fetch(`${app.url}/api/call`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ api_key: acc.apiKey, api_secret: acc.apiSecret, phone_number: '5321234567', error_message: 'disk full on db1' }),
        });
        const id: string = ((await r.json()) as { call_id: string }).call_id;
        const auth = { 'X-Api-Key': acc.apiKey, 'X-Api-Secret': acc.apiSecret };
        const show = async () => ((await (await fetch(`${app.url}/api/calls/${id}`, { headers: auth })).json()) as { call: { state: string; last_reason: string } }).call;
        await expect.poll(async () => (await show()).state, { timeout: 30_000, interval: 250 }).toBe('no_answer');
        expect((await show()).last_reason).toBe('trunk did not answer: no response to the INVITE within sip.invite_timeout_s (1 s) (attempt 1 of 1)');
        expect(dir.cliJson(['calls', 'show', id]).last_reason).toBe('trunk did not answer: no response to the INVITE within sip.invite_timeout_s (1 s) (attempt 1 of 1)');
      } finally {
        await app.stop();
      }
    } finally {
      silent.close();
    }
  }, 60_000);

  it('a missing database: account create and admin create make it and print its absolute path; every other command refuses, naming it', () => {
    // A relative store.path, as the example config has: the folder the command runs in decides.
    const dir = mkdtempSync(join(tmpdir(), 'va-first-'));
    const configPath = join(dir, 'config.toml');
    writeFileSync(configPath, '[store]\npath = "./data/voice-alert.db"\n');
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(elsewhere);
    const run = (args: string[], input = '') => spawnSync(BINARY, ['--config', configPath, ...args], { cwd: elsewhere, input, encoding: 'utf8' });
    const expected = join(elsewhere, 'data', 'voice-alert.db');
    for (const args of [['account', 'list'], ['alerts', 'list'], ['keys', 'create', 'acc_x'], ['backup', join(dir, 'b')]]) {
      const r = run(args);
      expect(r.stderr, args.join(' ')).toContain(`no database at ${expected} (store.path)`);
      expect(r.status, args.join(' ')).toBe(1);
    }
    expect(existsSync(expected)).toBe(false);
    const admin = run(['admin', 'create', '--username', 'root', '--password-stdin'], 'a long enough password\n');
    expect(admin.status).toBe(0);
    expect(admin.stderr).toBe(`voice-alert: created the database ${expected}\n`);
    expect(existsSync(expected)).toBe(true);
    // Made once: the next command opens it and says nothing about it.
    const account = run(['account', 'create', '--name', 'NOC', '--plan', 'starter']);
    expect(account.status).toBe(0);
    expect(account.stderr).toBe('');
    expect(run(['account', 'list']).status).toBe(0);
    // account create makes a missing one too (another folder, another database: said on stderr).
    const other = join(dir, 'other');
    mkdirSync(other);
    const made = spawnSync(BINARY, ['--config', configPath, 'account', 'create', '--name', 'NOC', '--plan', 'starter'], { cwd: other, encoding: 'utf8' });
    expect(made.status).toBe(0);
    expect(made.stderr).toBe(`voice-alert: created the database ${join(other, 'data', 'voice-alert.db')}\n`);
  }, 120_000); // nine runs of the binary: generous for a loaded 2-core machine
});

/**
 * scripts/lib/setup.sh's ensure_node (scripts/run, scripts/test): Node.js only installs
 * packages, so Debian 12's own nodejs 18 is enough; older or missing says what to install.
 * Stubbed commands on a PATH of their own (id says "not root": nothing is installed).
 */
describe('scripts/run on the Node.js a fresh Debian 12 has (README "Try it")', () => {
  const ensureNode = (nodeVersion: string | null) => {
    const bin = mkdtempSync(join(tmpdir(), 'va-node-'));
    const stub = (name: string, body: string) => {
      writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
      chmodSync(join(bin, name), 0o755);
    };
    stub('id', 'echo 1000');
    if (nodeVersion) {
      stub('node', `case "$1" in --version) echo v${nodeVersion};; -p) echo ${nodeVersion.split('.')[0]};; esac`);
      stub('npm', 'exit 0');
    }
    const script = `source ${join(ROOT, 'scripts/lib/setup.sh')}; ensure_node; echo "note: \${NODE_ENGINE_NOTE:-none}"`;
    return spawnSync('/bin/bash', ['-c', script], { env: { PATH: bin }, encoding: 'utf8' });
  };

  it('Node 18 (Debian 12) is enough, with a note that the EBADENGINE warnings are harmless', () => {
    const r = ensureNode('18.19.0');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^note: Node\.js v18\.19\.0: npm may warn EBADENGINE .* Harmless: they run under Bun/m);
  });

  it('Node 22 says nothing; Node 16 and no Node at all name what to install', () => {
    expect(ensureNode('22.12.0').stdout).toBe('note: none\n');
    const old = ensureNode('16.20.2');
    expect(old.status).toBe(1);
    expect(old.stderr).toContain('Node.js v16.20.2 is too old: 18 or later is needed (Debian 12: sudo apt-get install -y nodejs npm)');
    const none = ensureNode(null);
    expect(none.status).toBe(1);
    expect(none.stderr).toContain('  sudo apt-get install -y nodejs npm\n');
  });
});
