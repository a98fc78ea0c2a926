import { afterEach, describe, expect, it } from 'vitest';
import { applianceDir, provision, type RunningAppliance } from '../helpers/appliance';
import { post } from '../helpers/http';
import { freePort } from '../helpers/ports';
import { startSipp, type SippPeer } from '../helpers/sipp';

let running: RunningAppliance[] = [];
let peers: SippPeer[] = [];
afterEach(async () => {
  for (const r of running) await r.stop();
  for (const p of peers) await p.stop();
  running = [];
  peers = [];
});

describe('alerts survive a power cut', () => {
  it('SIGKILL with a call ringing and a bundle waiting for its number: after the restart no alert is lost and the bundle is spoken', async () => {
    // The phone rings 3 s before it answers: the first call is still ringing when the process dies.
    const sipp = await startSipp({ scenario: 'answer.xml', calls: 3, keys: { ring_ms: 3000 } });
    peers.push(sipp);
    const rtp = await freePort();
    const a = applianceDir({
      sip: { server: `127.0.0.1:${sipp.port}`, local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 40}`, t1_ms: 50 },
      calls: { lease_s: 2, answer_delay_ms: 100, ring_timeout_s: 5, retry_delays_s: [1], max_attempts: 3, repeat: 1, per_number_gap_s: 60 },
      // Nobody listens to the words here (the bundle's are counted by their calls): the fastest
      // voice and short pauses end the bundled call sooner.
      tts: { voice: 'en', speed_wpm: 450, pause_ms: 200 },
    });
    const acc = provision(a);
    const first = await a.start();
    running.push(first);
    const raise = (text: string) => post(`${first.url}/api/call`, { api_key: acc.apiKey, api_secret: acc.apiSecret, phone_number: '5321234567', error_message: text });
    const ids = [(await raise('alert one')).json.call_id as string];
    const stateOf = async (id: string) => {
      const d = a.database();
      const row = (await d.query('SELECT state FROM calls WHERE id = ?').get(id)) as { state: string };
      await d.close();
      return row.state;
    };
    await expect.poll(() => stateOf(ids[0]!), { timeout: 10_000, interval: 50 }).toBe('ringing');
    // Four more alerts for the number while it is paced: they wait to be bundled.
    for (const t of ['two', 'three', 'four', 'five']) ids.push((await raise(`alert ${t}`)).json.call_id);
    const alertsBefore = a.cliJson(['alerts', 'list', '--account', acc.accountId]).map((x: any) => x.id).sort();
    expect(alertsBefore).toHaveLength(5);
    await first.kill();
    running = running.filter((r) => r !== first);

    const second = await a.start();
    running.push(second);
    await expect.poll(async () => (await Promise.all(ids.map(stateOf))).every((state) => ['completed'].includes(state)), { timeout: 40_000, interval: 250 }).toBe(true);
    expect(a.cliJson(['alerts', 'list', '--account', acc.accountId]).map((x: any) => x.id).sort()).toEqual(alertsBefore);
    const calls = ids.map((id) => a.cliJson(['calls', 'show', id]));
    // The call that was ringing is dialled again after its lease; the four waiting are spoken in it.
    expect(calls[0]).toMatchObject({ state: 'completed', bundled_into: null });
    for (const c of calls.slice(1)) expect(c).toMatchObject({ state: 'completed', bundled_into: ids[0] });
    expect(calls[0].events.map((e: any) => e.to)).toContain('dialing');
    expect(calls[0].events.filter((e: any) => e.to === 'dialing')).toHaveLength(2);
  }, 60_000);
});
