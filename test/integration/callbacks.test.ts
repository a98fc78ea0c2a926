import { afterEach, describe, expect, it } from 'vitest';
import { startCallbackReceiver, type ReceivedCallback } from '../helpers/callback-receiver';
import { applianceDir, provision, type RunningAppliance } from '../helpers/appliance';
import { post } from '../helpers/http';
import { freePort } from '../helpers/ports';
import { startSipp, type SippPeer } from '../helpers/sipp';

/**
 * Outcome callbacks through the compiled binary: calls placed to sipp produce events, a
 * local receiver (Bun.serve on 127.0.0.1) checks every signature and misbehaves on purpose.
 */
let running: RunningAppliance[] = [];
let peers: SippPeer[] = [];
let receivers: { stop(): unknown }[] = [];
afterEach(async () => {
  for (const r of running) await r.stop();
  for (const p of peers) await p.stop();
  for (const r of receivers) r.stop();
  running = [];
  peers = [];
  receivers = [];
});

async function sipConfig(sippPort: number) {
  const rtp = await freePort();
  return {
    sip: { server: `127.0.0.1:${sippPort}`, local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 40}`, t1_ms: 50 },
    calls: { lease_s: 2, answer_delay_ms: 100, ring_timeout_s: 5, retry_delays_s: [1], max_attempts: 1, repeat: 1, per_number_gap_s: 0, max_concurrent: 20 },
    tts: { voice: 'en', speed_wpm: 400 },
  };
}

type Received = ReceivedCallback;

function receiver(secret: () => string, mode: (n: number) => number | 'hang') {
  const r = startCallbackReceiver(secret, mode);
  receivers.push(r);
  return r;
}

/** What the sender orders by: the alert, or the call when it was made without one. */
const orderKey = (r: Received) => r.event.alert?.id ?? r.event.call!.id;

/** Each alert's (or alert-less call's) events as delivered (2xx), first delivery of each event id only. */
function deliveredPerAlert(received: Received[]): Map<string, string[]> {
  const seen = new Set<string>();
  const out = new Map<string, string[]>();
  for (const r of received) {
    if (r.answered === 'hung' || r.answered >= 300 || seen.has(r.event.id)) continue;
    seen.add(r.event.id);
    const key = orderKey(r);
    out.set(key, [...(out.get(key) ?? []), r.event.type]);
  }
  return out;
}

const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.99) - 1]!;

describe('outcome callbacks through the compiled binary', () => {
  it('a receiver that fails (500, then a hang) and a restart lose nothing: every event arrives once 2xx, in order per alert, signed', async () => {
    const sipp = await startSipp({ scenario: 'dtmf.xml', calls: 3, keys: { listen_ms: 200, digit: 1 } });
    peers.push(sipp);
    const dir = applianceDir(await sipConfig(sipp.port));
    const acc = provision(dir, 'professional');
    let secret = '';
    let healthy = false;
    // The first request hangs (the SIGTERM below aborts it: not recorded, so sent again after
    // the restart), the rest answer 500 until healthy.
    const hook = receiver(() => secret, (n) => (healthy ? 200 : n === 0 ? 'hang' : 500));
    const refused = dir.cli(['account', 'set-callback', acc.accountId, '--url', 'http://user:pw@127.0.0.1/']);
    expect([refused.status, refused.stderr]).toEqual([1, expect.stringContaining('--url must be an http(s) URL without user:password')]);
    expect(dir.cli(['account', 'set-callback', 'acc_missing', '--url', hook.url]).stderr).toContain('no account acc_missing');
    const set = dir.cliJson(['account', 'set-callback', acc.accountId, '--url', hook.url]);
    expect(set).toMatchObject({ id: acc.accountId, callback_url: hook.url, callback_secret: expect.stringMatching(/^vcs_/) });
    secret = set.callback_secret;

    let app = await dir.start();
    running.push(app);
    for (const n of ['5321110001', '5321110002', '5321110003']) {
      const r = await post(`${app.url}/api/call`, { api_key: acc.apiKey, api_secret: acc.apiSecret, phone_number: n, error_message: 'disk full' });
      expect(r.status).toBe(200);
    }
    // Each alert's first event was tried (and failed) before the restart.
    await expect.poll(() => new Set(hook.received.map(orderKey)).size, { timeout: 20_000, interval: 100 }).toBe(3);
    expect(hook.received.every((r) => r.event.type === 'call.answered')).toBe(true);
    await app.stop();
    running = [];
    healthy = true;
    app = await dir.start();
    running.push(app);
    // Retried 10 s after each failure; the one in flight at the stop at once. A call
    // made for an alert is followed by the alert's own event (calls without one: none).
    const expected = (key: string) => [
      'call.answered',
      'call.acknowledged',
      ...(hook.received.find((r) => orderKey(r) === key)!.event.alert ? ['alert.acknowledged'] : []),
    ];
    const complete = () => [...deliveredPerAlert(hook.received)].filter(([key, types]) => types.length === expected(key).length).length;
    await expect.poll(complete, { timeout: 40_000, interval: 250 }).toBe(3);
    const perAlert = deliveredPerAlert(hook.received);
    expect(perAlert.size).toBe(3);
    for (const [key, types] of perAlert) expect(types).toEqual(expected(key));
    expect(hook.received.every((r) => r.signatureValid)).toBe(true);
    expect(dir.cliJson(['account', 'clear-callback', acc.accountId])).toEqual({ id: acc.accountId, callback_url: null });
    // Never a later event of an alert before its earlier one was delivered.
    for (const [key, types] of perAlert) {
      const firstOk = hook.received.findIndex((r) => orderKey(r) === key && r.answered === 200);
      expect(hook.received.slice(0, firstOk).filter((r) => orderKey(r) === key).map((r) => r.event.type).every((t) => t === types[0])).toBe(true);
    }
  }, 90_000);

  it('a receiver that never answers does not slow POST /api/call nor the dialling', async () => {
    const total = 240;
    const sipp = await startSipp({ scenario: 'final.xml', calls: total, fill: { code: 486, reason: 'Busy Here' } });
    peers.push(sipp);
    const dir = applianceDir(await sipConfig(sipp.port));
    const acc = provision(dir, 'enterprise', ['--monthly-credit', '100000']);
    const hook = receiver(() => '', () => 'hang');
    const app = await dir.start();
    running.push(app);
    const burst = async (from: number, count: number) => {
      const times: number[] = [];
      for (let i = from; i < from + count; i++) {
        const t0 = performance.now();
        const r = await post(`${app.url}/api/call`, { api_key: acc.apiKey, api_secret: acc.apiSecret, phone_number: `532${String(2_000_000 + i).padStart(7, '0')}`, error_message: 'x' });
        times.push(performance.now() - t0);
        expect(r.status).toBe(200);
      }
      return times;
    };
    const settled = (n: number) => dir.cliJson(['calls', 'list', '--account', acc.accountId, '--limit', '1000']).filter((c: any) => c.state === 'busy').length >= n;

    await burst(0, 20); // warm-up: JIT, first connection
    const without = await burst(20, total / 2 - 20);
    await expect.poll(() => settled(total / 2), { timeout: 30_000, interval: 250 }).toBe(true);
    expect(hook.received).toHaveLength(0);

    dir.cliJson(['account', 'set-callback', acc.accountId, '--url', hook.url]);
    const withHangingHook = await burst(total / 2, total / 2);
    // Every call of the second half is still dialled and ends while the receiver hangs.
    await expect.poll(() => settled(total), { timeout: 30_000, interval: 250 }).toBe(true);
    // The sender reaches the hanging receiver (it polls its outbox every second) and its slots
    // for the account stay held there.
    await expect.poll(() => hook.received.length, { timeout: 10_000, interval: 100 }).toBeGreaterThan(0);
    expect(hook.received.every((r) => r.answered === 'hung')).toBe(true);
    const [a, b] = [p99(without), p99(withHangingHook)];
    // Generous: a shared 2-core machine; a blocked group commit would cost seconds.
    expect(b, `p99 without a callback ${a.toFixed(1)} ms, with a hanging one ${b.toFixed(1)} ms`).toBeLessThan(Math.max(a * 3, a + 100));
  }, 120_000);
});
