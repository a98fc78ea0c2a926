import { afterEach, describe, expect, it } from 'vitest';
import { applianceDir, type RunningAppliance } from '../helpers/appliance';
import { startKamailio, type Peer } from '../helpers/pbx';
import { freePort } from '../helpers/ports';

const stops: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const s of stops.splice(0).reverse()) await s();
});

const trunkCheck = async (app: RunningAppliance) => ((await (await fetch(`${app.url}/healthz`)).json()) as { checks: { trunk: string } }).checks.trunk;

describe('trunk monitoring in the running appliance (docs/operations.md "Trunk monitoring")', () => {
  it('/healthz checks.trunk follows OPTIONS to kamailio: up while it answers, down (still 200) once it is gone; each change one log line', async () => {
    const pbx: Peer = await startKamailio({ target: '127.0.0.1:9', auth: false, user: 'voice-alert', password: '' });
    let pbxRunning = true;
    stops.push(() => (pbxRunning ? pbx.stop() : Promise.resolve()));
    const rtp = await freePort();
    // Probed every second; T1 = 50 ms: an unanswered OPTIONS gives up after 64·T1 = 3.2 s.
    const dir = applianceDir({
      sip: { server: `127.0.0.1:${pbx.port}`, local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 10}`, t1_ms: 50, options_interval_s: 1 },
    });
    const app = await dir.start();
    stops.push(() => app.stop());
    await expect.poll(() => app.output(), { timeout: 5000 }).toContain('sip trunk up: OPTIONS answered');
    expect(await trunkCheck(app)).toBe('up');

    await pbx.stop();
    pbxRunning = false;
    await expect.poll(() => trunkCheck(app), { timeout: 8000 }).toBe('down');
    const health = await fetch(`${app.url}/healthz`);
    expect(health.status).toBe(200); // a restart cannot fix a PBX
    const changes = app
      .output()
      .split('\n')
      .filter((l) => l.includes('"component":"trunk-monitor"'))
      .map((l) => JSON.parse(l));
    expect(changes.map((l) => [l.msg, l.result])).toEqual([
      ['sip trunk up: OPTIONS answered', '200 OK'],
      ['sip trunk down: OPTIONS unanswered', 'timeout'],
    ]);
    expect(changes[1]).toMatchObject({ level: 40, server: `127.0.0.1:${pbx.port}`, from: 'up' });
  });
});
