import { afterEach, describe, expect, it } from 'vitest';
import { applianceDir, provision, type RunningAppliance } from '../helpers/appliance';
import { untilLoopsLookedAgain } from '../helpers/loop-ticks';
import { freePort } from '../helpers/ports';
import { startSipp, type SippPeer } from '../helpers/sipp';

/**
 * docs/on-call.md "Heartbeats": a missed deadline is an alert that calls like any other. Through
 * the compiled binary and a trunk (sipp answering): the heartbeat's one alert is dialled, spoken
 * and completed, and a second look at the same missed deadline dials nobody again.
 * (heartbeats.test.ts holds the rest, with no trunk: the call waits there.)
 */
let stops: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const s of stops.reverse()) await s();
  stops = [];
});

describe('a missed heartbeat calls through the trunk', () => {
  it('one alert, one call placed to the heartbeat number and completed; the peer saw exactly one INVITE', async () => {
    const phone: SippPeer = await startSipp({ scenario: 'answer.xml', calls: 1, keys: { ring_ms: 10 } });
    stops.push(() => phone.stop());
    const rtp = await freePort();
    const dir = applianceDir({
      sip: { server: `127.0.0.1:${phone.port}`, local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 20}`, t1_ms: 100 },
      calls: { answer_delay_ms: 100, ring_timeout_s: 10, retry_delays_s: [1], max_attempts: 1, repeat: 1 },
      // Nobody listens to the words here: the fastest voice and short pauses end the call sooner.
      tts: { voice: 'en', speed_wpm: 450, pause_ms: 200 },
    });
    const cred = provision(dir);
    const app: RunningAppliance = await dir.start();
    stops.push(() => app.stop());
    const hb = dir.cliJson(['heartbeat', 'create', cred.accountId, '--name', 'backup', '--interval-s', '2', '--grace-s', '0', '--to', '5321234568']);
    expect((await fetch(`${app.url}${hb.ping_url}`, { method: 'POST' })).status).toBe(200);

    const calls = () => dir.cliJson(['calls', 'list', '--account', cred.accountId]) as { id: string; state: string; phone_number: string }[];
    await expect.poll(() => calls().map((c) => c.state), { timeout: 30_000, interval: 250 }).toEqual(['completed']);
    const [call] = calls();
    expect(call).toMatchObject({ phone_number: '5321234568' });
    const shown = dir.cliJson(['calls', 'show', call!.id]);
    expect(shown).toMatchObject({ state: 'completed', attempts: 1 });
    expect(shown.alert_id).toEqual(expect.any(String));
    // The same heartbeat's alert, still open: later looks at the missed deadline added no call.
    const listed = await fetch(`${app.url}/api/heartbeats`, { headers: { 'x-webhook-key': cred.webhookKey } });
    const [heartbeat] = ((await listed.json()) as { heartbeats: { state: string; alert_id: string }[] }).heartbeats;
    expect(heartbeat).toMatchObject({ state: 'late', alert_id: shown.alert_id });
    // Past the next deadline checks (src/heartbeats/checker.ts, every second).
    await untilLoopsLookedAgain(app.url, ['heartbeats']);
    expect(calls()).toHaveLength(1);
    // sipp (-m 1) took exactly one call through its whole scenario: INVITE, answer, our BYE.
    expect(await phone.exited).toBe(0);
  }, 60_000);

  it('a heartbeat whose policy reaches nobody calls the account fallback through the trunk (docs/on-call.md "Nothing silently calls nobody")', async () => {
    const phone: SippPeer = await startSipp({ scenario: 'answer.xml', calls: 1, keys: { ring_ms: 10 } });
    stops.push(() => phone.stop());
    const rtp = await freePort();
    const dir = applianceDir({
      sip: { server: `127.0.0.1:${phone.port}`, local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 20}`, t1_ms: 100 },
      calls: { answer_delay_ms: 100, ring_timeout_s: 10, retry_delays_s: [1], max_attempts: 1, repeat: 1 },
      // Nobody listens to the words here: the fastest voice and short pauses end the call sooner.
      tts: { voice: 'en', speed_wpm: 450, pause_ms: 200 },
    });
    const cred = provision(dir);
    // The schedule's only layer starts in 2099: nobody is on call now, so the policy reaches nobody.
    const layers = [{ participants: [{ name: 'Cem', number: '5323333333' }], shift: '7d', start: '2099-01-05T09:00' }];
    dir.cliJson(['schedule', 'create', cred.accountId, '--name', 'backup', '--time-zone', 'Europe/Istanbul', '--layers', JSON.stringify(layers)]);
    dir.cliJson(['policy', 'create', cred.accountId, '--name', 'night', '--step', '@backup:60']);
    dir.cliJson(['account', 'set-fallback', cred.accountId, '--phone', '5329999999']);
    const app: RunningAppliance = await dir.start();
    stops.push(() => app.stop());
    const hb = dir.cliJson(['heartbeat', 'create', cred.accountId, '--name', 'backup-job', '--interval-s', '2', '--grace-s', '0', '--policy', 'night']);
    expect((await fetch(`${app.url}${hb.ping_url}`, { method: 'POST' })).status).toBe(200);

    const calls = () => dir.cliJson(['calls', 'list', cred.accountId]) as { id: string; state: string; phone_number: string }[];
    await expect.poll(() => calls().map((c) => [c.phone_number, c.state]), { timeout: 30_000, interval: 250 }).toEqual([['5329999999', 'completed']]);
    const shown = dir.cliJson(['calls', 'show', cred.accountId, calls()[0]!.id]);
    const alert = dir.cliJson(['alerts', 'show', cred.accountId, shown.alert_id]);
    expect(alert).toMatchObject({ source: 'heartbeat', unroutable: 'step 1: schedule backup has nobody on call' });
    // sipp (-m 1) took exactly the fallback's call through its whole scenario.
    expect(await phone.exited).toBe(0);
  }, 60_000);
});
