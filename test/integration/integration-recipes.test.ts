import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applianceDir, provision, type ApplianceDir, type RunningAppliance } from '../helpers/appliance';
import { freePort } from '../helpers/ports';
import { docBlock, docSection } from '../helpers/docs';
import { until } from '../helpers/until';

// docs/integrations.md "Integration recipes", run as written (only host, key and numbers
// replaced), so the docs cannot drift from what works. The Alertmanager recipe runs the real Alertmanager
// (Debian package prometheus-alertmanager) against the compiled binary.
const recipes = docSection('docs/integrations.md', '## Integration recipes', '## PagerDuty and Opsgenie compatible intake');
const ALERTMANAGER = '/usr/bin/prometheus-alertmanager';

/** The first fenced block after `**<title>**` in the recipes section. */
const block = (title: string) => docBlock(recipes, title);

let dir: ApplianceDir;
let app: RunningAppliance;
let cred: ReturnType<typeof provision>;
/** The docs' placeholders made real: host, key. */
const localise = (text: string) => text.replaceAll('http://voice-alert.lan:8080', app.url).replaceAll('vwk_…', cred.webhookKey);

async function rows<T>(sql: string, ...params: string[]): Promise<T[]> {
  const { Database } = await import('bun:sqlite');
  const db = new Database(`${dir.dir}/data/voice-alert.db`, { readonly: true });
  const out = db.query(sql).all(...params) as T[];
  db.close();
  return out;
}

beforeAll(async () => {
  dir = applianceDir();
  cred = provision(dir, 'enterprise', ['--monthly-credit', '1000']);
  app = await dir.start();
});
afterAll(() => app?.stop());

/** Zabbix's synchronous HttpRequest object, over curl (the script runs as Zabbix would run it). */
class HttpRequest {
  private headers: string[] = [];
  private status = 0;
  addHeader(h: string) {
    this.headers.push(h);
  }
  post(url: string, body: string): string {
    const args = ['-s', '-m', '10', '-o', '-', '-w', '\n%{http_code}', '--data-binary', body, ...this.headers.flatMap((h) => ['-H', h]), url];
    const r = spawnSync('curl', args, { encoding: 'utf8' });
    const nl = r.stdout.lastIndexOf('\n');
    this.status = Number(r.stdout.slice(nl + 1));
    return r.stdout.slice(0, nl);
  }
  getStatus() {
    return this.status;
  }
}

describe('integration recipes', () => {
  it('Zabbix: each recipient is called (no replay of another recipient), a retry replays, the recovery is accepted', async () => {
    const script = block('Zabbix');
    const run = (params: Record<string, string>) =>
      new Function('value', 'HttpRequest', script)(JSON.stringify({ url: `${app.url}/webhook/receive`, key: cred.webhookKey, ...params }), HttpRequest);
    const problem = { subject: 'Problem: High CPU', message: 'CPU 95% on db1', event: '4711', value: '1' };
    expect(run({ ...problem, to: '5321234567' })).toBe('OK');
    expect(run({ ...problem, to: '5321234568' })).toBe('OK');
    expect(run({ ...problem, to: '5321234568' })).toBe('OK'); // Zabbix retried: replayed, not called twice
    const calls = await rows<{ phone_number: string; message: string }>('SELECT phone_number, message FROM calls ORDER BY created_at');
    expect(calls.filter((c) => c.message === 'Problem: High CPU. CPU 95% on db1')).toEqual([
      { phone_number: '5321234567', message: 'Problem: High CPU. CPU 95% on db1' },
      { phone_number: '5321234568', message: 'Problem: High CPU. CPU 95% on db1' },
    ]);
    expect(run({ subject: 'Resolved: High CPU', message: 'CPU 20% on db1', event: '4711', value: '0', to: '5321234567' })).toBe('OK');
  });

  it('cron: the crontab line, run by sh as cron runs it, places the call', async () => {
    const line = block('cron').trim();
    expect(line.split('\n')).toHaveLength(1); // crontab has no continuation lines
    expect(line).not.toContain('%'); // cron turns % into a newline
    const command = localise(line.split(/\s+/).slice(5).join(' ')).replace('/usr/local/bin/backup.sh', 'false');
    const r = spawnSync('sh', ['-c', command], { encoding: 'utf8' });
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'success', message: '1 call(s) queued' });
    expect(await rows('SELECT 1 FROM calls WHERE message = ?', `Backup failed on ${hostname()}`)).toHaveLength(1);
  });

  it('CI workflow: a re-run attempt calls again, a retry of one attempt does not', async () => {
    const yaml = block('CI workflow');
    const folded = /run: >-\n([\s\S]*?)\n\s*env:/.exec(yaml)![1]!.split('\n').map((l) => l.trim()).join(' ');
    const runStep = (attempt: string) => {
      const command = folded
        .replaceAll('${{ github.run_id }}', '991')
        .replaceAll('${{ github.run_attempt }}', attempt)
        .replaceAll('${{ github.repository }}', 'org/app');
      const r = spawnSync('sh', ['-c', command], { encoding: 'utf8', env: { ...process.env, VOICE_ALERT_URL: app.url, VOICE_ALERT_KEY: cred.webhookKey } });
      return JSON.parse(r.stdout) as { call_ids: string[] };
    };
    const first = runStep('1');
    expect(runStep('1').call_ids).toEqual(first.call_ids);
    expect(runStep('2').call_ids).not.toEqual(first.call_ids);
    expect(await rows('SELECT 1 FROM calls WHERE message = ?', 'Deploy of org/app failed')).toHaveLength(2);
  });

  it('Nagios/Icinga: the command line, macros filled in, places the call', async () => {
    const def = block('Nagios / Icinga');
    const command = /command_line\s+(.*)/.exec(def)![1]!
      .replace('$USER10$', cred.webhookKey)
      .replace('$CONTACTPAGER$', '5321234567')
      .replace('$HOSTNAME$', 'web1')
      .replace('$SERVICEDESC$', 'HTTP')
      .replace('$SERVICESTATE$', 'CRITICAL')
      .replace('$SERVICEOUTPUT$', 'Connection refused');
    const r = spawnSync('sh', ['-c', localise(command)], { encoding: 'utf8' });
    expect(JSON.parse(r.stdout).message).toBe('1 call(s) queued');
    expect(await rows('SELECT 1 FROM calls WHERE message = ?', 'web1 HTTP is CRITICAL: Connection refused')).toHaveLength(1);
  });

  it('PRTG: the payload with its placeholders filled in raw (a % included) places the calls', async () => {
    const payload = /payload\s+`([^`]+)`/.exec(recipes.slice(recipes.indexOf('**PRTG**')))![1]!;
    const body = payload.replace('%device', 'sw1').replace('%name', 'CPU').replace('%status', 'Down').replace('%message', '95 % load');
    const res = await fetch(`${app.url}/webhook/receive?key=${cred.webhookKey}`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(((await res.json()) as { message: string }).message).toBe('2 call(s) queued');
    expect(await rows('SELECT 1 FROM calls WHERE message = ?', 'sw1 CPU is Down: 95 % load')).toHaveLength(2);
  });

  it('FortiGate: the body with its variables filled in places the call', async () => {
    const body = /body\s+`([^`]+)`/.exec(recipes.slice(recipes.indexOf('**FortiGate**')))![1]!.replace('%%log.devname%%', 'fw1').replace('%%log.logdesc%%', 'VPN tunnel down');
    const res = await fetch(`${app.url}/webhook/receive`, { method: 'POST', body, headers: { 'x-webhook-key': cred.webhookKey, 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    expect(await rows('SELECT 1 FROM calls WHERE message = ?', 'fw1: VPN tunnel down')).toHaveLength(1);
  });
});

describe('the real Alertmanager with the docs receiver', () => {
  let am: ChildProcess | undefined;
  let amDir: string;
  let amUrl: string;

  beforeAll(async () => {
    if (!existsSync(ALERTMANAGER)) throw new Error(`${ALERTMANAGER} missing: apt-get install prometheus-alertmanager`);
    amDir = mkdtempSync(join(tmpdir(), 'va-am-'));
    const port = await freePort();
    amUrl = `http://127.0.0.1:${port}`;
    // The docs' receivers block as written; only the route's timings are short for a test.
    const receivers = localise(block('Prometheus Alertmanager')).replace('to=5321234567,5321234568', 'to=5321234569');
    writeFileSync(join(amDir, 'am.yml'), `route:\n  receiver: voice\n  group_by: [job]\n  group_wait: 1s\n  group_interval: 1s\n  repeat_interval: 1h\n${receivers}`);
    am = spawn(ALERTMANAGER, [
      `--config.file=${join(amDir, 'am.yml')}`,
      `--storage.path=${join(amDir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--cluster.listen-address=',
    ], { stdio: 'ignore' });
    await until('Alertmanager ready', async () => (await fetch(`${amUrl}/-/ready`).catch(() => null))?.ok === true);
  });
  afterAll(() => {
    if (am?.pid) process.kill(am.pid);
    if (amDir) rmSync(amDir, { recursive: true, force: true });
  });

  it('an alert posted to Alertmanager becomes a call; its resolution reaches the appliance and cancels the call', async () => {
    const labels = { alertname: 'InstanceDown', job: 'readme', instance: 'db9:9100' };
    const annotations = { summary: 'db9 is down' };
    const postAlert = (extra: Record<string, string>) =>
      fetch(`${amUrl}/api/v2/alerts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify([{ labels, annotations, ...extra }]) });
    expect((await postAlert({})).ok).toBe(true);
    const message = 'Instance Down. db9 is down. db9:9100.';
    await until('the heartbeat call queued', async () => (await rows('SELECT 1 FROM calls WHERE phone_number = ? AND message = ?', '5321234569', message)).length === 1);

    const past = new Date(Date.now() - 1000).toISOString();
    expect((await postAlert({ startsAt: new Date(Date.now() - 60_000).toISOString(), endsAt: past })).ok).toBe(true);
    // The resolved group reaches the appliance and closes the alert: its waiting call ends cancelled.
    await until('the heartbeat call cancelled', async () => (await rows("SELECT 1 FROM calls WHERE phone_number = ? AND message = ? AND state = 'cancelled'", '5321234569', message)).length === 1);
    const refused = await rows<{ message: string }>("SELECT message FROM api_history WHERE endpoint = '/webhook/receive' AND status >= 400");
    expect(refused).toEqual([]);
  }, 40_000);
});
