import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applianceDir, provision, type ApplianceDir, type RunningAppliance } from '../helpers/appliance';
import { freePort } from '../helpers/ports';
import { docBlock, docSection } from '../helpers/docs';
import { until } from '../helpers/until';

// docs/on-call.md "Heartbeats: a call when a ping does not come" through the compiled binary: its
// two recipes run as written (host and token replaced; Alertmanager's timings shortened), the real
// Alertmanager (Debian package prometheus-alertmanager) as the pinger of one; then a missed
// deadline, the ping that resolves it, and a restart in the middle of a deadline.
const section = docSection('docs/on-call.md', '## Heartbeats', '## Maintenance windows');
const ALERTMANAGER = '/usr/bin/prometheus-alertmanager';

/** The first fenced block after `**<title>**` in the section. */
const block = (title: string) => docBlock(section, title);

interface HeartbeatJson {
  id: string;
  name: string;
  state: string;
  last_ping_at: string | null;
  alert_id: string | null;
}

let dir: ApplianceDir;
let app: RunningAppliance;
let cred: ReturnType<typeof provision>;

/** The docs' placeholders made real: host, webhook key, ping URL. */
const localise = (text: string, pingUrl: string) =>
  text.replaceAll('http://voice-alert.lan:8080', app.url).replaceAll('vwk_…', cred.webhookKey).replaceAll('/heartbeat/<token>', pingUrl);

function create(name: string, intervalS: number, graceS: number, to = '5321234567'): { id: string; ping_url: string } {
  return dir.cliJson(['heartbeat', 'create', cred.accountId, '--name', name, '--interval-s', String(intervalS), '--grace-s', String(graceS), '--to', to]);
}

async function listed(): Promise<HeartbeatJson[]> {
  const r = await fetch(`${app.url}/api/heartbeats`, { headers: { 'x-webhook-key': cred.webhookKey } });
  expect(r.status).toBe(200);
  return ((await r.json()) as { heartbeats: HeartbeatJson[] }).heartbeats;
}
const one = async (name: string) => (await listed()).find((h) => h.name === name)!;

async function rows<T>(sql: string, ...params: string[]): Promise<T[]> {
  const { Database } = await import('bun:sqlite');
  const db = new Database(`${dir.dir}/data/voice-alert.db`, { readonly: true });
  const out = db.query(sql).all(...params) as T[];
  db.close();
  return out;
}

beforeAll(async () => {
  dir = applianceDir({ panel: { language: 'en' } });
  cred = provision(dir, 'enterprise', ['--monthly-credit', '1000']);
  app = await dir.start();
});
afterAll(() => app?.stop());

describe('CLI', () => {
  it('create prints id and ping_url once; list, show, pause, resume and delete; refusals exit 1 with a reason', () => {
    const made = dir.cliJson(['heartbeat', 'create', cred.accountId, '--name', 'cli', '--interval-s', '600', '--to', '0532 123 45 67', '--message', 'Yedekleme durdu']);
    expect(made).toMatchObject({ id: expect.stringMatching(/^hb_/), ping_url: expect.stringMatching(/^\/heartbeat\/[0-9A-Za-z]{32}$/), state: 'new', interval_s: 600, grace_s: 60, to: ['5321234567'], message: 'Yedekleme durdu' });
    const token = made.ping_url.replace('/heartbeat/', '');
    expect(dir.cliJson(['heartbeat', 'show', cred.accountId, 'cli'])).toMatchObject({ id: made.id, state: 'new', last_ping_at: null });
    expect(JSON.stringify(dir.cliJson(['heartbeat', 'list', cred.accountId]))).not.toContain(token);
    expect(dir.cliJson(['heartbeat', 'pause', cred.accountId, made.id])).toMatchObject({ state: 'paused', changed: true });
    expect(dir.cliJson(['heartbeat', 'list', cred.accountId]).find((h: HeartbeatJson) => h.id === made.id).state).toBe('paused');
    expect(dir.cliJson(['heartbeat', 'resume', cred.accountId, 'cli'])).toMatchObject({ state: 'new', changed: true });
    expect(dir.cliJson(['heartbeat', 'delete', cred.accountId, 'cli'])).toMatchObject({ id: made.id, deleted: true });
    const gone = dir.cli(['heartbeat', 'show', cred.accountId, 'cli']);
    expect([gone.status, gone.stderr.trim()]).toEqual([1, 'voice-alert: Heartbeat not found: cli']);
    const nobody = dir.cli(['heartbeat', 'create', cred.accountId, '--name', 'x', '--interval-s', '60']);
    expect(nobody.status).toBe(1);
    expect(nobody.stderr).toContain('give --policy or --to');
    const policy = dir.cli(['heartbeat', 'create', cred.accountId, '--name', 'x', '--interval-s', '60', '--policy', 'nope']);
    expect([policy.status, policy.stderr.trim()]).toEqual([1, 'voice-alert: Unknown escalation policy: nope']);
    const negative = dir.cli(['heartbeat', 'create', cred.accountId, '--name', 'x', '--interval-s', '60', '--grace-s', '-1', '--to', '5321234567']);
    expect(negative.status).toBe(2); // a value the option cannot take: a usage error (docs "CLI conventions")
    expect(negative.stderr.trim()).toBe('voice-alert: --grace-s must be a whole number >= 0, got "-1"');
    expect(dir.cliJson(['heartbeat', 'list', cred.accountId]).some((h: HeartbeatJson) => h.name === 'x')).toBe(false);
  });
});

describe('docs endpoint examples', () => {
  it('each curl line of "Ping" succeeds against a real ping URL; "List" shows the heartbeat up', async () => {
    const hb = create('curl-examples', 300, 60);
    const lines = block('Ping').trim().split('\n');
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      const r = spawnSync('sh', ['-c', localise(line, hb.ping_url)], { encoding: 'utf8' });
      expect(r.status).toBe(0);
    }
    const list = block('List').trim().split('\n')[0]!;
    const r = spawnSync('sh', ['-c', localise(list, hb.ping_url)], { encoding: 'utf8' });
    const body = JSON.parse(r.stdout) as { status: string; message: string; heartbeats: HeartbeatJson[] };
    expect(body).toMatchObject({ status: 'success', message: 'Heartbeats found' });
    expect(body.heartbeats.find((h) => h.name === 'curl-examples')).toMatchObject({ state: 'up', last_ping_at: expect.any(String) });
  });
});

describe('docs recipe: cron', () => {
  it('the crontab line, run by sh as cron runs it: a failing job sends no ping, a succeeding one does', async () => {
    const hb = create('cron-job', 300, 120);
    const line = block('Heartbeat: cron').trim();
    expect(line.split('\n')).toHaveLength(1); // crontab has no continuation lines
    expect(line).not.toContain('%'); // cron turns % into a newline
    const command = localise(line.split(/\s+/).slice(5).join(' '), hb.ping_url);
    expect(command).toContain(`curl -fsS -m 10 ${app.url}${hb.ping_url}`);

    const failed = spawnSync('sh', ['-c', command.replace('/usr/local/bin/sync-orders.sh', 'false')], { encoding: 'utf8' });
    expect(failed.status).not.toBe(0);
    expect((await one('cron-job')).state).toBe('new');

    const ok = spawnSync('sh', ['-c', command.replace('/usr/local/bin/sync-orders.sh', 'true')], { encoding: 'utf8' });
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ status: 'success', message: 'Heartbeat received' });
    expect(await one('cron-job')).toMatchObject({ state: 'up', last_ping_at: expect.any(String) });

    // The same curl against a wrong token fails loudly (-f), so cron mails the error.
    const wrong = spawnSync('sh', ['-c', command.replace('/usr/local/bin/sync-orders.sh', 'true').replace(hb.ping_url, '/heartbeat/' + 'x'.repeat(32))], { encoding: 'utf8' });
    expect(wrong.status).toBe(22); // curl: HTTP error with -f
    expect(wrong.stderr).toContain('404');
  });
});

describe('docs recipe: the real Alertmanager Watchdog receiver', () => {
  let am: ChildProcess | undefined;
  let amDir: string;
  let amUrl: string;
  let hb: { id: string; ping_url: string };

  beforeAll(async () => {
    if (!existsSync(ALERTMANAGER)) throw new Error(`${ALERTMANAGER} missing: apt-get install prometheus-alertmanager`);
    hb = create('watchdog', 4, 0);
    amDir = mkdtempSync(join(tmpdir(), 'va-am-hb-'));
    const port = await freePort();
    amUrl = `http://127.0.0.1:${port}`;
    // The docs' alertmanager.yml as written; only the Watchdog route's timings are short for a test.
    const config = localise(block('Heartbeat: Alertmanager Watchdog'), hb.ping_url)
      .replace('group_interval: 1m', 'group_interval: 1s')
      .replace('repeat_interval: 1m', 'repeat_interval: 1s');
    writeFileSync(join(amDir, 'am.yml'), config);
    am = spawn(
      ALERTMANAGER,
      [`--config.file=${join(amDir, 'am.yml')}`, `--storage.path=${join(amDir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--cluster.listen-address='],
      { stdio: 'ignore' },
    );
    await until('Alertmanager ready', async () => (await fetch(`${amUrl}/-/ready`).catch(() => null))?.ok === true);
  });
  afterAll(() => {
    if (am?.pid) process.kill(am.pid);
    if (amDir) rmSync(amDir, { recursive: true, force: true });
  });

  it('an always-firing Watchdog alert posted to Alertmanager keeps the heartbeat up, and calls nobody', async () => {
    const watchdog = [{ labels: { alertname: 'Watchdog', severity: 'none' }, annotations: { summary: 'Always firing' } }];
    const posted = await fetch(`${amUrl}/api/v2/alerts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(watchdog) });
    expect(posted.ok).toBe(true);
    await until('the watchdog heartbeat up', async () => (await one('watchdog')).state === 'up');
    const first = (await one('watchdog')).last_ping_at!;
    // Longer than the heartbeat's 4 s interval: Alertmanager's repeats keep it up.
    const pings = new Set<string>([first]);
    for (let i = 0; i < 7; i++) {
      await Bun.sleep(1000);
      const h = await one('watchdog');
      expect(h.state).toBe('up');
      pings.add(h.last_ping_at!);
    }
    expect(pings.size).toBeGreaterThan(2);
    expect(await rows(`SELECT 1 FROM alerts WHERE alert_key = ?`, `heartbeat:${hb.id}`)).toEqual([]);
    // The Watchdog went to the heartbeat route only, never to the calling receiver.
    expect(await rows('SELECT 1 FROM calls')).toEqual([]);
  }, 40_000);
});

describe('deadlines through the binary', () => {
  it('a missed deadline raises exactly one alert with a queued call; the next ping resolves it and cancels the call', async () => {
    const hb = create('missed', 2, 0, '5321234568');
    const never = create('never-pinged', 1, 0, '5321234568');
    expect((await fetch(`${app.url}${hb.ping_url}`, { method: 'POST', body: 'x' })).status).toBe(200);
    const pinged = Date.now();
    await until('the missed heartbeat late', async () => (await one('missed')).state === 'late');
    // docs/on-call.md "Heartbeats": deadlines are checked at least every 5 s, so `late` comes no
    // earlier than interval + grace (2 s) and no later than 5 s after it (+ this loop's 100 ms
    // look).
    expect(Date.now() - pinged).toBeGreaterThanOrEqual(2000);
    expect(Date.now() - pinged).toBeLessThan(2000 + 5000 + 100);
    await Bun.sleep(2500); // more looks: still one alert
    const alerts = await rows<{ id: string; message: string; state: string; source: string }>(
      'SELECT id, message, state, source FROM alerts WHERE alert_key = ?',
      `heartbeat:${hb.id}`,
    );
    expect(alerts).toEqual([{ id: expect.any(String), message: 'Heartbeat missed missed. Last signal 0 minutes ago.', state: 'open', source: 'heartbeat' }]);
    const calls = await rows<{ id: string; state: string; phone_number: string }>('SELECT id, state, phone_number FROM calls WHERE alert_id = ?', alerts[0]!.id);
    expect(calls).toEqual([{ id: expect.any(String), state: 'queued', phone_number: '5321234568' }]); // no SIP trunk here: it waits
    expect((await one('missed')).alert_id).toBe(alerts[0]!.id);

    expect((await fetch(`${app.url}${hb.ping_url}`, { method: 'HEAD' })).status).toBe(200);
    expect((await one('missed')).state).toBe('up');
    expect(await rows('SELECT state FROM alerts WHERE id = ?', alerts[0]!.id)).toEqual([{ state: 'resolved' }]);
    expect(await rows('SELECT state FROM calls WHERE id = ?', calls[0]!.id)).toEqual([{ state: 'cancelled' }]);
    // A heartbeat never pinged never fired.
    expect((await one('never-pinged')).state).toBe('new');
    expect(await rows('SELECT 1 FROM alerts WHERE alert_key = ?', `heartbeat:${never.id}`)).toEqual([]);
  }, 30_000);

  it('a restart in the middle of a deadline: the heartbeat gets a full interval from the start, then fires', async () => {
    const hb = create('restart', 3, 0);
    expect((await fetch(`${app.url}${hb.ping_url}`)).status).toBe(200);
    await app.stop();
    await Bun.sleep(3500); // down past the deadline
    app = await dir.start();
    const started = Date.now();
    expect((await one('restart')).state).toBe('up');
    await Bun.sleep(1500);
    expect((await one('restart')).state).toBe('up'); // the old deadline passed 2 s ago
    await until('the heartbeat late after the restart', async () => (await one('restart')).state === 'late');
    expect(Date.now() - started).toBeGreaterThanOrEqual(2500);
    expect(await rows('SELECT 1 FROM alerts WHERE alert_key = ?', `heartbeat:${hb.id}`)).toHaveLength(1);
  }, 30_000);
});
