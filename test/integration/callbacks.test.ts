import { afterEach, describe, expect, it } from 'vitest';
import { type ReceivedCallback } from '../helpers/callback-receiver';
import { callbackRig } from '../helpers/callback-rig';
import { applianceDir, provision } from '../helpers/appliance';
import { post } from '../helpers/http';
import { startSipp } from '../helpers/sipp';

/**
 * Outcome callbacks through the compiled binary: calls placed to sipp produce events, a
 * local receiver (Bun.serve on 127.0.0.1) checks every signature and misbehaves on purpose.
 */
const rig = callbackRig();
afterEach(() => rig.stopAll());

type Received = ReceivedCallback;

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

describe('outcome callbacks through the compiled binary', () => {
  it('a receiver that fails (500, then a hang) and a restart lose nothing: every event arrives once 2xx, in order per alert, signed', async () => {
    const sipp = rig.keepPeer(await startSipp({ scenario: 'dtmf.xml', calls: 3, keys: { listen_ms: 200, digit: 1 } }));
    const dir = applianceDir(await rig.sipConfig(sipp.port));
    const acc = provision(dir, 'professional');
    let secret = '';
    let healthy = false;
    // The first request hangs (the SIGTERM below aborts it: not recorded, so sent again after
    // the restart), the rest answer 500 until healthy.
    const hook = rig.receiver(() => secret, (n) => (healthy ? 200 : n === 0 ? 'hang' : 500));
    const refused = dir.cli(['account', 'set-callback', acc.accountId, '--url', 'http://user:pw@127.0.0.1/']);
    expect([refused.status, refused.stderr]).toEqual([1, expect.stringContaining('--url must be an http(s) URL without user:password')]);
    expect(dir.cli(['account', 'set-callback', 'acc_missing', '--url', hook.url]).stderr).toBe('voice-alert: Account not found: acc_missing\n');
    const set = dir.cliJson(['account', 'set-callback', acc.accountId, '--url', hook.url]);
    expect(set).toMatchObject({ id: acc.accountId, callback_url: hook.url, callback_secret: expect.stringMatching(/^vcs_/) });
    secret = set.callback_secret;

    let app = await rig.start(dir);
    for (const n of ['5321110001', '5321110002', '5321110003']) {
      const r = await post(`${app.url}/api/call`, { api_key: acc.apiKey, api_secret: acc.apiSecret, phone_number: n, error_message: 'disk full' });
      expect(r.status).toBe(200);
    }
    // Each alert's first event was tried (and failed) before the restart.
    await expect.poll(() => new Set(hook.received.map(orderKey)).size, { timeout: 20_000, interval: 100 }).toBe(3);
    expect(hook.received.every((r) => r.event.type === 'call.answered')).toBe(true);
    await app.stop();
    healthy = true;
    app = await rig.start(dir);
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
});
