import { afterEach, describe, expect, it } from 'vitest';
import { callOverHttp } from '../helpers/api-reads';
import { applianceDir, provision, type ApplianceDir, type RunningAppliance } from '../helpers/appliance';
import { startCallbackReceiver } from '../helpers/callback-receiver';
import { post } from '../helpers/http';
import { freePort } from '../helpers/ports';
import { parsePromText, sampleValue } from '../helpers/prom-text';
import { startSipp, type SippPeer } from '../helpers/sipp';

/**
 * The voice-path self-test (docs/telephony.md "Voice-path self-test") through the compiled binary.
 * The far ends are sipp answering with `answer.xml`: with `-rtp_echo` it sends every RTP packet
 * back to where it came from (an echo test on a PBX); without it, it answers and sends nothing.
 * duration_s = 1 and T1 = 50 ms keep each self-test call near a second.
 */
const stops: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const s of stops.splice(0).reverse()) await s();
});

async function peer(o: { echo: boolean; calls: number; port?: number }): Promise<SippPeer> {
  const p = await startSipp({ scenario: 'answer.xml', calls: o.calls, port: o.port, extra: o.echo ? ['-rtp_echo'] : [] });
  stops.push(() => p.stop());
  return p;
}

async function config(trunks: Record<string, unknown>[], selfTest: Record<string, unknown>) {
  const rtp = await freePort();
  return {
    sip: { local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 40}`, t1_ms: 50, trunks },
    calls: { lease_s: 2, answer_delay_ms: 100, ring_timeout_s: 5, retry_delays_s: [1], max_attempts: 1, repeat: 1 },
    tts: { voice: 'en', speed_wpm: 400 },
    self_test: { number: '600', duration_s: 1, expect: 'echo', ...selfTest },
  };
}

async function start(dir: ApplianceDir): Promise<RunningAppliance> {
  const app = await dir.start();
  stops.push(() => app.stop());
  return app;
}

describe('voice-path self-test against sipp peers', () => {
  it('`self-test run --json` from the CLI: exit 0 when the echo comes back, 1 when the peer answers and echoes nothing; a list for several trunks', async () => {
    const echo = await peer({ echo: true, calls: 2 });
    const silent = await peer({ echo: false, calls: 1 });
    const dir = applianceDir(
      await config(
        [
          { name: 'pbx', server: `127.0.0.1:${echo.port}` },
          { name: 'carrier', server: `127.0.0.1:${silent.port}` },
        ],
        { interval_s: 0 },
      ),
    );
    // A command other than account/admin create needs the database to exist (docs/cli.md "The database").
    dir.cliJson(['account', 'create', '--name', 'NOC', '--plan', 'starter']);
    // No server runs: the CLI dials on its own SIP port.
    const both = dir.cli(['self-test', 'run', '--json']);
    expect(both.status).toBe(1);
    const results = JSON.parse(both.stdout) as { ok: boolean; trunk: string; reason: string; echo_ratio: number | null }[];
    expect(results.map((r) => [r.trunk, r.ok])).toEqual([
      ['pbx', true],
      ['carrier', false],
    ]);
    expect(results[0]!.reason).toMatch(/^echo: (\d+) of 50 frames came back in order/);
    expect(results[0]!.echo_ratio).toBeGreaterThanOrEqual(0.8);
    expect(results[1]).toMatchObject({ reason: 'no echo: no RTP at all came back (50 frames sent)', echo_ratio: 0 });
    expect(both.stderr).toContain('self-test failed: carrier: no echo');

    const one = dir.cli(['self-test', 'run', '--trunk', 'pbx', '--json']);
    expect(one.status).toBe(0);
    expect(JSON.parse(one.stdout)).toMatchObject({ ok: true, trunk: 'pbx', expect: 'echo', origin: 'cli' });
    expect([await echo.exited, await silent.exited]).toEqual([0, 0]);

    const listed = dir.cliJson<{ trunk: string; ok: boolean }[]>(['self-test', 'list']);
    expect(listed.map((r) => [r.trunk, r.ok])).toEqual([
      ['pbx', true],
      ['carrier', false],
      ['pbx', true],
    ]);
    expect(dir.cli(['self-test', 'run', '--trunk', 'nope', '--json']).status).toBe(2);
  }, 40_000);

  it('scheduled: a failed echo marks the trunk down (callbacks, /healthz, /metrics) and calls go to the next trunk; a later pass marks it up', async () => {
    const silent = await peer({ echo: false, calls: 1 });
    const carrier = await peer({ echo: false, calls: 1 });
    const dir = applianceDir(
      await config(
        [
          { name: 'pbx', server: `127.0.0.1:${silent.port}` },
          { name: 'carrier', server: `127.0.0.1:${carrier.port}` },
        ],
        { interval_s: 2, trunk: 'pbx' },
      ),
    );
    const acc = provision(dir);
    let secret = '';
    const hook = startCallbackReceiver(() => secret);
    stops.push(async () => hook.stop());
    secret = dir.cliJson(['account', 'set-callback', acc.accountId, '--url', hook.url]).callback_secret;
    const app = await start(dir);
    const trunks = async () => ((await (await fetch(`${app.url}/healthz`)).json()) as { checks: { trunks: Record<string, string> } }).checks.trunks;
    const selfTestOk = async () => sampleValue(parsePromText(await (await fetch(`${app.url}/metrics`)).text()), 'voice_alert_self_test_ok', { trunk: 'pbx' });
    const events = (type: string) => hook.received.filter((r) => r.event.type === type).map((r) => r.event);

    await expect.poll(trunks, { timeout: 15_000 }).toEqual({ pbx: 'down', carrier: 'none' });
    expect(await selfTestOk()).toBe(0);
    await expect.poll(() => events('selftest.failed').length, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(events('selftest.failed')[0].self_test).toMatchObject({ ok: false, trunk: 'pbx', reason: 'no echo: no RTP at all came back (50 frames sent)', origin: 'schedule' });
    await expect.poll(() => events('trunk.down').map((e) => e.trunk.name), { timeout: 15_000 }).toEqual(['pbx']);
    expect(events('trunk.down')[0].trunk.result).toMatch(/^self-test failed: no echo/);

    // pbx is down: an alert's call goes straight out through carrier.
    const r = await post(`${app.url}/api/call`, { api_key: acc.apiKey, api_secret: acc.apiSecret, phone_number: '5321234567', error_message: 'disk full on db1' });
    expect(r.status).toBe(200);
    await expect.poll(async () => (await callOverHttp(app, acc, r.json.call_id)).state, { timeout: 20_000, interval: 200 }).toBe('completed');
    expect((dir.cliJson(['calls', 'show', r.json.call_id]).events as { to: string; trunk: string | null }[]).filter((e) => e.to === 'answered').map((e) => e.trunk)).toEqual(['carrier']);
    expect(await carrier.exited).toBe(0);

    // The PBX's echo test works again (on the same address): the next self-test passes.
    expect(await silent.exited).toBe(0);
    await peer({ echo: true, calls: 50, port: silent.port });
    await expect.poll(trunks, { timeout: 20_000 }).toEqual({ pbx: 'up', carrier: 'none' });
    expect(await selfTestOk()).toBe(1);
    await expect.poll(() => events('selftest.passed').length, { timeout: 15_000 }).toBe(1);
    expect(events('selftest.passed')[0].self_test).toMatchObject({ ok: true, trunk: 'pbx' });
    await expect.poll(() => events('trunk.up').map((e) => e.trunk.name), { timeout: 15_000 }).toEqual(['pbx']);
    const newest = dir.cliJson<{ trunk: string; ok: boolean; origin: string }[]>(['self-test', 'list'])[0];
    expect(newest).toMatchObject({ trunk: 'pbx', ok: true, origin: 'schedule' });
    // docs/telephony.md "Voice-path self-test": self-test calls cost no credit and belong to no
    // account. At least two ran (the failed one and the pass); the alert's call is the only call,
    // and its credit the only one used.
    expect(dir.cliJson<unknown[]>(['self-test', 'list']).length).toBeGreaterThanOrEqual(2);
    expect(dir.cliJson<{ id: string }[]>(['calls', 'list']).map((c) => c.id)).toEqual([r.json.call_id]);
    expect(dir.cliJson(['credit', 'show', acc.accountId])).toMatchObject({ used: 1 });
  }, 90_000);
});
