import { spawn } from 'node:child_process';
import { Database } from 'bun:sqlite';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { sign } from '../../src/signing';
import { callOverHttp } from '../helpers/api-reads';
import { applianceDir, provision, type ApplianceDir } from '../helpers/appliance';
import { post } from '../helpers/http';
import { BINARY } from '../helpers/paths';
import { freePort } from '../helpers/ports';
import { startSipp } from '../helpers/sipp';

/** libfaketime (Debian package faketime): the binary's clock two hours ahead, timers untouched. */
const LIBFAKETIME = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';
const twoHoursLater = { LD_PRELOAD: LIBFAKETIME, FAKETIME: '+2h', FAKETIME_DONT_FAKE_MONOTONIC: '1' };

/** The CLI run without blocking this process, so the load it runs beside keeps going. */
function cliAsync(a: ApplianceDir, args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(BINARY, ['--config', a.configPath, ...args], { cwd: a.dir });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

const callIdsIn = (dbPath: string): Set<string> => {
  const db = new Database(dbPath, { readonly: true });
  try {
    return new Set((db.query('SELECT id FROM calls').all() as { id: string }[]).map((r) => r.id));
  } finally {
    db.close();
  }
};

describe('backup and restore (issue 10 item 8)', () => {
  it('a backup taken under concurrent writes restores with every call answered before it began', async () => {
    const live = applianceDir();
    const cred = provision(live, 'enterprise', ['--monthly-credit', '1000000']);
    const app = await live.start();
    const answered: { id: string; at: number }[] = [];
    let stop = false;
    let refused = 0;
    const worker = async () => {
      while (!stop) {
        const r = await post(`${app.url}/webhook/receive?key=${cred.webhookKey}`, { phone_number: '5321234567', error_message: 'load' });
        if (r.status === 200) answered.push({ id: r.json.call_ids[0], at: performance.now() });
        else refused++;
      }
    };
    const load = Array.from({ length: 16 }, worker);
    const dest = join(mkdtempSync(join(tmpdir(), 'va-backup-')), 'copy');
    let backup;
    let startedAt = 0;
    let endedAt = 0;
    try {
      await expect.poll(() => answered.length, { timeout: 10_000 }).toBeGreaterThan(500);
      startedAt = performance.now();
      backup = await cliAsync(live, ['backup', dest, '--json']);
      endedAt = performance.now();
      const during = answered.length;
      await expect.poll(() => answered.length, { timeout: 10_000 }).toBeGreaterThan(during + 200); // writes carried on
    } finally {
      stop = true;
      await Promise.all(load);
      await app.stop();
    }
    expect(refused).toBe(0);
    expect(backup!.status).toBe(0);
    const summary = JSON.parse(backup!.stdout);
    expect(summary).toMatchObject({ path: dest, schema_version: expect.any(Number), calls: expect.any(Number), seconds: expect.any(Number) });
    expect(summary.seconds).toBeLessThan(10);
    expect(answered.some((a) => a.at > startedAt && a.at < endedAt)).toBe(true); // the service answered during the backup
    expect(statSync(join(dest, 'secret.key')).mode & 0o777).toBe(0o600);

    const restored = applianceDir();
    const r = restored.cliJson(['restore', dest]);
    expect(r).toMatchObject({ schema_version: summary.schema_version, calls: summary.calls });
    const ids = callIdsIn(join(restored.dir, 'data', 'voice-alert.db'));
    const before = answered.filter((a) => a.at < startedAt).map((a) => a.id);
    expect(before.length).toBeGreaterThan(500);
    expect(before.filter((id) => !ids.has(id))).toEqual([]);
    expect(ids.size).toBe(summary.calls);
  }, 60_000);

  it('restore refuses a non-empty data folder and touches nothing in it', async () => {
    const live = applianceDir();
    provision(live);
    const dest = join(mkdtempSync(join(tmpdir(), 'va-backup-')), 'copy');
    expect(live.cli(['backup', dest]).status).toBe(0);

    const target = applianceDir();
    mkdirSync(join(target.dir, 'data'));
    writeFileSync(join(target.dir, 'data', 'notes.txt'), 'old');
    const r = target.cli(['restore', dest, '--json']);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^voice-alert: data folder .*\/data is not empty \(notes\.txt\); refusing to overwrite\n$/);
    expect(readdirSync(join(target.dir, 'data'))).toEqual(['notes.txt']);

    // The live folder is not empty either: restoring over a running appliance's data is refused too.
    expect(live.cli(['restore', dest]).stderr).toMatch(/is not empty/);
    // And a backup never overwrites an earlier one.
    expect(live.cli(['backup', dest]).stderr).toMatch(/^voice-alert: backup destination .* is not empty/);
  });

  it('restore refuses a copy whose secret.key does not belong to it, or that is damaged', async () => {
    const live = applianceDir();
    provision(live);
    const dest = join(mkdtempSync(join(tmpdir(), 'va-backup-')), 'copy');
    expect(live.cli(['backup', dest]).status).toBe(0);
    writeFileSync(join(dest, 'secret.key'), Buffer.alloc(32, 7));
    const r = applianceDir().cli(['restore', dest]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/secret\.key does not belong to this database/);

    const damaged = join(mkdtempSync(join(tmpdir(), 'va-backup-')), 'copy');
    mkdirSync(damaged);
    writeFileSync(join(damaged, 'voice-alert.db'), 'not a database at all');
    writeFileSync(join(damaged, 'secret.key'), Buffer.alloc(32, 7));
    const target = applianceDir();
    expect(target.cli(['restore', damaged]).stderr).toMatch(/^voice-alert: .*voice-alert\.db (is damaged|cannot be)/);
    expect(readdirSync(target.dir)).toEqual(['config.toml']); // nothing written
  });

  it('a restored appliance starts and decrypts its API secrets (a signed request is accepted)', async () => {
    const live = applianceDir();
    const cred = provision(live);
    const dest = join(mkdtempSync(join(tmpdir(), 'va-backup-')), 'copy');
    expect(live.cli(['backup', dest]).status).toBe(0);

    const restored = applianceDir();
    expect(restored.cli(['restore', dest]).status).toBe(0);
    const data = join(restored.dir, 'data');
    expect(statSync(join(data, 'secret.key')).mode & 0o777).toBe(0o600);
    expect(statSync(join(data, 'voice-alert.db')).mode & 0o777).toBe(0o600);
    const app = await restored.start();
    try {
      const body = JSON.stringify({ api_key: cred.apiKey, phone_number: '5321234567', error_message: 'after restore' });
      const ts = String(Math.floor(Date.now() / 1000));
      // The HMAC is checked against the API secret decrypted with the restored secret.key.
      const r = await fetch(`${app.url}/api/call`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-timestamp': ts, 'x-signature': sign(cred.apiSecret, ts, new TextEncoder().encode(body)) },
        body,
      });
      expect(r.status).toBe(200);
      expect(await r.json()).toMatchObject({ status: 'success', call_id: expect.stringMatching(/^call_/) });
    } finally {
      await app.stop();
    }
  });
});

describe('no SIP trunk (issue 10 item 7)', () => {
  it('a queued call says why it waits', async () => {
    const a = applianceDir();
    const cred = provision(a);
    const app = await a.start();
    try {
      const r = await post(`${app.url}/api/call`, { api_key: cred.apiKey, api_secret: cred.apiSecret, phone_number: '5321234567', error_message: 'x' });
      expect(r.status).toBe(200);
      await expect.poll(async () => (await callOverHttp(app, cred, r.json.call_id)).last_reason, { timeout: 5000 }).toBe('no SIP trunk configured'); // marked within a second
      expect(a.cliJson(['calls', 'show', r.json.call_id]).state).toBe('queued');
    } finally {
      await app.stop();
    }
  });

  it('a call queued with no trunk expires after calls.max_age_s and is never dialled when a trunk appears later', async () => {
    expect(existsSync(LIBFAKETIME)).toBe(true);
    const a = applianceDir({ calls: { max_age_s: 60, per_number_gap_s: 0 }, tts: { voice: 'en', speed_wpm: 400 } });
    const cred = provision(a);
    let app = await a.start();
    const queued = await post(`${app.url}/api/call`, { api_key: cred.apiKey, api_secret: cred.apiSecret, phone_number: '5321111111', error_message: 'stale' });
    expect(queued.status).toBe(200);
    const id = queued.json.call_id;
    await app.stop();

    // Two hours later on the appliance's clock, still no trunk: the sweep expires it.
    app = await a.start([], twoHoursLater);
    try {
      await expect.poll(async () => (await callOverHttp(app, cred, id)).state, { timeout: 10_000 }).toBe('expired');
    } finally {
      await app.stop();
    }
    const expired = a.cliJson(['calls', 'show', id]);
    expect(expired).toMatchObject({ state: 'expired', attempts: 0, last_reason: 'not placed within calls.max_age_s (60 s): no SIP trunk configured' });
    expect(expired.events.map((e: any) => `${e.from}>${e.to}`)).toEqual(['queued>expired']);

    // The operator configures a trunk: a PBX that answers exactly one INVITE, busy.
    const sipp = await startSipp({ scenario: 'final.xml', calls: 1, fill: { code: 486, reason: 'Busy Here' } });
    const rtp = await freePort();
    const config = parseToml(readFileSync(a.configPath, 'utf8')) as Record<string, any>;
    // No OPTIONS probe: sipp would take it for its one call (test/helpers/appliance.ts).
    config.sip = { server: `127.0.0.1:${sipp.port}`, local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 40}`, t1_ms: 50, options_interval_s: 0 };
    writeFileSync(a.configPath, stringifyToml(config));
    app = await a.start();
    try {
      const fresh = await post(`${app.url}/api/call`, { api_key: cred.apiKey, api_secret: cred.apiSecret, phone_number: '5322222222', error_message: 'fresh' });
      expect(fresh.status).toBe(200);
      await expect.poll(async () => (await callOverHttp(app, cred, fresh.json.call_id)).last_sip_code, { timeout: 10_000 }).toBe(486);
      expect(await sipp.exited).toBe(0); // one INVITE, the fresh call's
    } finally {
      await app.stop();
      await sipp.stop();
    }
    expect(a.cliJson(['calls', 'show', id])).toMatchObject({ state: 'expired', attempts: 0 });
    expect(a.cliJson(['calls', 'show', id]).events).toHaveLength(1);
  }, 60_000);

  it('the demo banner says its example number is a placeholder for the operator\'s own phone', async () => {
    const a = applianceDir();
    const app = await a.start(['--demo-account']);
    await app.stop();
    expect(app.output()).toMatch(/5321234567 below is a PLACEHOLDER, not a test line: replace it with your own\s+mobile number/);
  });
});
