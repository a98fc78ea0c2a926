import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applianceDir, provision, type RunningAppliance } from '../helpers/appliance';
import { post } from '../helpers/http';
import { freePort } from '../helpers/ports';
import { parsePromText, sampleValue } from '../helpers/prom-text';

/**
 * GET /metrics of the compiled binary (prom-client bundled into it), scraped by Debian's
 * `prometheus` (scripts/lib/setup.sh installs it) exactly as docs/operations.md's scrape config
 * says, and linted by its `promtool check metrics`.
 */
const TOKEN = 'metrics-token-for-tests-1';
let app: RunningAppliance;
let webhookKey = '';

beforeAll(async () => {
  const dir = applianceDir({ metrics: { token: TOKEN } });
  webhookKey = provision(dir).webhookKey;
  app = await dir.start();
}, 30_000);
afterAll(async () => {
  await app?.stop();
});

const scrape = (headers: Record<string, string> = {}) => fetch(`${app.url}/metrics`, { headers });

describe('GET /metrics from the binary', () => {
  it('401 JSON without the bearer token; with it, a text exposition a strict reader and promtool accept', async () => {
    const refused = await scrape();
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ status: 'error', message: 'Metrics token required', code: 'metrics_token_required' });

    const r = await post(`${app.url}/webhook/receive?key=${webhookKey}`, { phone_number: '5321234567', error_message: 'Disk dolu' });
    expect(r.status).toBe(200);
    // A request is counted once its answer has gone out (after the response): scrape until it shows…
    let text = '';
    await expect
      .poll(
        async () => {
          const ok = await scrape({ authorization: `Bearer ${TOKEN}` });
          expect(ok.status).toBe(200);
          text = await ok.text();
          const families = parsePromText(text);
          // …and until the store's gauges are a fresh read (a scrape waits 50 ms at most for them).
          if (sampleValue(families, 'voice_alert_database_up') !== 1) return 'store not read yet';
          return sampleValue(families, 'voice_alert_http_requests_total', { endpoint: '/webhook/receive', method: 'POST', status: '200' });
        },
        { timeout: 5_000, interval: 50 },
      )
      .toBe(1);
    const f = parsePromText(text);
    expect(sampleValue(f, 'voice_alert_http_requests_total', { endpoint: '/metrics', status: '401' })).toBe(1);
    expect(sampleValue(f, 'voice_alert_calls', { state: 'queued' })).toBe(1);
    expect(sampleValue(f, 'voice_alert_alerts', { state: 'open' })).toBe(1);
    // The webhook's transaction went through the group commit, and was observed.
    expect(sampleValue(f, 'voice_alert_group_commit_seconds_count')).toBeGreaterThanOrEqual(1);
    // Every background loop is timed by the engine (src/engine): the first ticks ran at start.
    for (const loop of ['escalation', 'heartbeats', 'callbacks', 'no-trunk-sweep']) {
      expect(sampleValue(f, 'voice_alert_loop_tick_seconds_count', { loop }), loop).toBeGreaterThanOrEqual(1);
    }

    const lint = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(lint.error).toBeUndefined();
    expect(lint.stdout + lint.stderr).toBe('');
    expect(lint.status).toBe(0);
  });

  it('Prometheus scrapes it with the docs scrape config (bearer token); a wrong token is a target down with 401', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'va-prometheus-'));
    writeFileSync(join(dir, 'token'), TOKEN);
    writeFileSync(join(dir, 'wrong'), 'not-the-token');
    const target = new URL(app.url).host;
    const job = (name: string, file: string) => `
  - job_name: ${name}
    scrape_interval: 1s
    authorization:
      type: Bearer
      credentials_file: ${join(dir, file)}
    static_configs:
      - targets: ['${target}']`;
    writeFileSync(join(dir, 'prometheus.yml'), `global:\n  scrape_interval: 1s\nscrape_configs:${job('voice-alert', 'token')}${job('wrong-token', 'wrong')}\n`);
    const port = await freePort();
    const prometheus = spawn(
      'prometheus',
      [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
      { stdio: 'ignore' },
    );
    const exited = new Promise((resolve) => prometheus.on('exit', resolve));
    try {
      const api = async (path: string) => {
        try {
          return (await (await fetch(`http://127.0.0.1:${port}${path}`)).json()) as any;
        } catch {
          return null; // not listening yet
        }
      };
      const targets = async () => {
        const t = await api('/api/v1/targets');
        return Object.fromEntries(((t?.data?.activeTargets ?? []) as any[]).map((x) => [x.labels.job, { health: x.health, lastError: x.lastError }]));
      };
      await expect.poll(targets, { timeout: 20_000, interval: 250 }).toMatchObject({
        'voice-alert': { health: 'up', lastError: '' },
        'wrong-token': { health: 'down', lastError: expect.stringContaining('401') },
      });
      const query = async () => (await api('/api/v1/query?query=voice_alert_calls%7Bstate%3D%22queued%22%2Cjob%3D%22voice-alert%22%7D'))?.data?.result?.[0]?.value?.[1];
      await expect.poll(query, { timeout: 10_000, interval: 250 }).toBe('1');
    } finally {
      prometheus.kill('SIGTERM');
      await exited;
    }
  }, 40_000);
});
