import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { freePort } from './ports';

/** Debian's Alertmanager (package prometheus-alertmanager), as integration-recipes.test.ts and https.test.ts run it. */
export const ALERTMANAGER = '/usr/bin/prometheus-alertmanager';

export interface RunningAlertmanager {
  url: string;
  /** POSTs alerts to its /api/v2/alerts, as Prometheus does. */
  postAlerts(alerts: Record<string, unknown>[]): Promise<void>;
  stop(): void;
}

/** The real Alertmanager on a free loopback port with `config` (YAML), clustering off; ready when it returns. */
export async function startAlertmanager(config: string): Promise<RunningAlertmanager> {
  if (spawnSync(ALERTMANAGER, ['--version']).status !== 0) throw new Error(`${ALERTMANAGER} missing: apt-get install prometheus-alertmanager`);
  const dir = mkdtempSync(join(tmpdir(), 'va-am-'));
  writeFileSync(join(dir, 'am.yml'), config + '\n');
  const port = await freePort();
  const child = spawn(
    ALERTMANAGER,
    [`--config.file=${join(dir, 'am.yml')}`, `--storage.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--cluster.listen-address='],
    { stdio: 'ignore' },
  );
  const url = `http://127.0.0.1:${port}`;
  await expect.poll(async () => (await fetch(`${url}/-/ready`).catch(() => null))?.ok === true, { timeout: 20_000, interval: 100 }).toBe(true);
  return {
    url,
    async postAlerts(alerts) {
      const r = await fetch(`${url}/api/v2/alerts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(alerts) });
      expect(r.ok).toBe(true);
    },
    stop() {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
