import { afterEach, describe, expect, it } from 'vitest';
import { applianceDir, provision } from '../helpers/appliance';
import { callbackRig } from '../helpers/callback-rig';
import { post } from '../helpers/http';
import { freePort } from '../helpers/ports';
import { startSipp } from '../helpers/sipp';

/**
 * Contract "People", phones in order, through the compiled binary against sipp standing for a
 * person's phones (test/peers/sipp/busy-or-press.xml: one number busy, every other answers
 * and presses 1): a busy first phone rings the second at once in the same step, once; a first
 * phone that acknowledges leaves the second silent.
 */
const peerRig = callbackRig();
afterEach(() => peerRig.stopAll());

const MOBILE = '5321111111';
const DESK = '5322222222';

async function rig(o: { busy: string; calls: number }) {
  const sipp = await startSipp({ scenario: 'busy-or-press.xml', calls: o.calls, keys: { listen_ms: 300, digit: 1 }, fill: { busy_number: o.busy } });
  peerRig.keepPeer(sipp);
  const rtp = await freePort();
  const a = applianceDir({
    sip: { server: `127.0.0.1:${sipp.port}`, local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 40}`, t1_ms: 50 },
    // The busy phone's own retry is far off (30 s): the desk phone, not the retry, must answer within the step.
    calls: { lease_s: 2, answer_delay_ms: 100, ring_timeout_s: 5, retry_delays_s: [30], max_attempts: 2, repeat: 1, per_number_gap_s: 0 },
    tts: { voice: 'en', speed_wpm: 400 },
  });
  const acc = provision(a);
  const person = a.cliJson(['person', 'create', acc.accountId, '--name', 'Ayşe', '--phone', MOBILE, '--phone', DESK, '--json']);
  // wait_s 600: a step that moved on by its wait could not pass for "the same step".
  a.cliJson(['policy', 'create', acc.accountId, '--name', 'oncall', '--step', '+Ayşe:600', '--rounds', '1']);
  const app = await peerRig.start(a);
  const alertOf = async (id: string) =>
    (await fetch(`${app.url}/api/alerts/${id}`, { headers: { 'x-api-key': acc.apiKey, 'x-api-secret': acc.apiSecret } }).then((r) => r.json())).alert;
  const callOf = async (id: string) =>
    (await fetch(`${app.url}/api/calls/${id}`, { headers: { 'x-api-key': acc.apiKey, 'x-api-secret': acc.apiSecret } }).then((r) => r.json())).call;
  const raise = () => post(`${app.url}/api/call`, { api_key: acc.apiKey, api_secret: acc.apiSecret, error_message: 'core switch down', policy: 'oncall' });
  return { a, acc, sipp, person, alertOf, callOf, raise };
}

describe("a person's phones in order, through the binary", () => {
  it('the first phone busy (486): the second rings at once in the same step, once, and acknowledges', async () => {
    const { raise, alertOf, callOf, sipp, person } = await rig({ busy: MOBILE, calls: 2 });
    const r = await raise();
    expect(r.status).toBe(200);
    const alertId = r.json.alert_id;
    await expect.poll(async () => (await alertOf(alertId))?.state, { timeout: 30_000, interval: 200 }).toBe('acknowledged');
    const alert = await alertOf(alertId);
    expect(alert.acknowledged_by).toBe(DESK);
    // The mobile's retry (30 s away) was cancelled by the acknowledgement: it never rang again.
    expect(alert.calls.map((c: any) => [c.phone_number, c.state])).toEqual([
      [MOBILE, 'cancelled'],
      [DESK, 'acknowledged'],
    ]);
    const [mobile, desk] = await Promise.all(alert.calls.map((c: any) => callOf(c.id)));
    expect(mobile.person).toEqual({ id: person.id, phone: 0 });
    expect(desk.person).toEqual({ id: person.id, phone: 1 });
    expect(mobile.events.map((e: any) => e.sip_code)).toContain(486);
    // The desk phone was queued as the busy answer came back, not after the step's 600 s.
    expect(Date.parse(desk.created_at) - Date.parse(mobile.created_at)).toBeLessThan(20_000);
    expect(await sipp.exited).toBe(0); // exactly two calls reached the phones
  }, 60_000);

  it('the first phone answered and 1 pressed: the second never rings', async () => {
    const { raise, alertOf, sipp, person } = await rig({ busy: '5329999999', calls: 1 });
    const r = await raise();
    const alertId = r.json.alert_id;
    await expect.poll(async () => (await alertOf(alertId))?.state, { timeout: 30_000, interval: 200 }).toBe('acknowledged');
    const alert = await alertOf(alertId);
    // A next phone is only ever queued in the transaction that ends a call unreached: none did.
    expect(alert.calls.map((c: any) => [c.phone_number, c.state])).toEqual([[MOBILE, 'acknowledged']]);
    expect(alert.acknowledged_by).toBe(MOBILE);
    expect(await sipp.exited).toBe(0);
    expect(person.phones).toHaveLength(2);
  }, 60_000);
});
