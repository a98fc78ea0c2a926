import { withEngine } from '../../test/helpers/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { configSchema } from '../config';
import { createLogger } from '../log';
import { tempStore } from '../../test/helpers/memory-store';
import { freePort } from '../../test/helpers/ports';
import { startSipp, type SippPeer } from '../../test/helpers/sipp';
import { createTelephony, type Telephony } from '../calls';
import { createTrunkMonitor } from './trunk-monitor';
import type { CallAudioSource } from '../call-model';

const tone = async () => ({ pcmu: new Uint8Array(160).fill(0xff), pcma: new Uint8Array(160).fill(0xd5), durationMs: 20 });
const audio: CallAudioSource = { forMessage: tone, acknowledged: tone, forBundle: tone };

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

/**
 * A telephony whose trunk is probed every second; T1 = 50 ms makes an unanswered OPTIONS
 * give up after 64·T1 = 3.2 s (RFC 3261 §17.1.2.2 Timer F).
 */
async function rig(pbxPort: number) {
  const rtp = await freePort();
  const config = configSchema.parse({
    sip: { server: `127.0.0.1:${pbxPort}`, local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 10}`, t1_ms: 50, options_interval_s: 1 },
  });
  const lines: Record<string, unknown>[] = [];
  const log = createLogger('info', { write: (s: string) => lines.push(JSON.parse(s)) });
  const store = await tempStore(Date.now);
  const withCallback = await store.transaction((tx) => tx.accounts.create({ name: 'noc', plan: 'starter' }));
  const withoutCallback = await store.transaction((tx) => tx.accounts.create({ name: 'quiet', plan: 'starter' }));
  await store.transaction((tx) => tx.outbox.setTarget(withCallback.id, { url: 'http://127.0.0.1:1/cb', secret: 's' }));
  const telephony = withEngine(createTelephony(config, { store, clock: Date.now, log, audio }));
  telephony.start();
  cleanup.push(async () => {
    await telephony.stop();
    await store.close();
  });
  const events = async (accountId: string) => (await store.outbox.recent(accountId, 100)).reverse().map((e) => JSON.parse(e.body));
  const changes = () => lines.filter((l) => l.component === 'trunk-monitor').map((l) => l.msg);
  return { telephony, events, changes, withCallback, withoutCallback, server: `127.0.0.1:${pbxPort}` };
}

async function sipp(o: { code: number; reason: string; port?: number }): Promise<SippPeer> {
  const peer = await startSipp({ scenario: 'options.xml', calls: 1000, fill: { code: o.code, reason: o.reason }, port: o.port });
  cleanup.push(() => peer.stop());
  return peer;
}

describe('trunk monitoring with SIP OPTIONS', () => {
  // Not 408: sip.js treats every 408 to a non-INVITE as its own timeout (RFC 4320 §4.1).
  // Not 503: that PBX says it cannot serve, the trunk is down (docs/telephony.md "SIP trunks:
  // several, in order").
  it.each([
    [407, 'Proxy Authentication Required'],
    [404, 'Not Found'],
  ])('a PBX answering %i is reachable: the trunk coming up is logged once, no change counted, no event', async (code, reason) => {
    const pbx = await sipp({ code, reason });
    const r = await rig(pbx.port);
    await expect.poll(() => r.telephony.status().reachable, { timeout: 5000 }).toBe(true);
    const s = r.telephony.status();
    expect(s).toMatchObject({ state: 'up', reachable: true, lastProbeResult: `${code} ${reason}`, changes: { down: 0, up: 0 } });
    expect(s.lastProbeAt).toBeGreaterThan(Date.now() - 5000);
    expect(s.lastProbeRttMs).toBeGreaterThanOrEqual(0);
    // Probed again a second later, still up: one log line for the one edge (unknown -> up).
    await expect.poll(() => r.telephony.status().lastProbeAt, { timeout: 5000 }).toBeGreaterThan(s.lastProbeAt!);
    expect(r.changes()).toEqual(['sip trunk up: OPTIONS answered']);
    expect(await r.events(r.withCallback.id)).toEqual([]);
  });

  it('a PBX answering 503 to OPTIONS: the trunk is down (state, log, trunk.down with its name)', async () => {
    const pbx = await sipp({ code: 503, reason: 'Service Unavailable' });
    const r = await rig(pbx.port);
    await expect.poll(() => r.telephony.status().reachable, { timeout: 5000 }).toBe(false);
    expect(r.telephony.status()).toMatchObject({ state: 'up', lastProbeResult: '503 Service Unavailable', changes: { down: 1, up: 0 }, trunks: [{ name: 'default', state: 'down' }] });
    expect(r.changes()).toEqual(['sip trunk down: OPTIONS answered 503']);
    await expect.poll(async () => (await r.events(r.withCallback.id)).map((e) => [e.type, e.trunk])).toEqual([
      ['trunk.down', { name: 'default', server: r.server, reachable: false, result: '503 Service Unavailable' }],
    ]);
  });

  it('nothing listening: down after Timer F, logged, counted, trunk.down to every account with a callback; then trunk.up when the PBX is back', async () => {
    const port = await freePort();
    const r = await rig(port);
    await expect.poll(() => r.telephony.status().reachable, { timeout: 8000 }).toBe(false);
    expect(r.telephony.status()).toMatchObject({ state: 'up', reachable: false, lastProbeResult: 'timeout', lastProbeRttMs: null, changes: { down: 1, up: 0 } });
    expect(r.changes()).toEqual(['sip trunk down: OPTIONS unanswered']);
    // The event commits in its own transaction just after the state changed.
    await expect.poll(async () => (await r.events(r.withCallback.id)).length).toBe(1);
    const [down] = await r.events(r.withCallback.id);
    expect(down).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      type: 'trunk.down',
      account_id: r.withCallback.id,
      trunk: { server: r.server, reachable: false, result: 'timeout' },
    });
    expect(await r.events(r.withoutCallback.id)).toEqual([]);

    await sipp({ code: 200, reason: 'OK', port });
    await expect.poll(() => r.telephony.status().reachable, { timeout: 8000 }).toBe(true);
    expect(r.telephony.status()).toMatchObject({ reachable: true, lastProbeResult: '200 OK', changes: { down: 1, up: 1 } });
    expect(r.changes()).toEqual(['sip trunk down: OPTIONS unanswered', 'sip trunk up: OPTIONS answered']);
    await expect.poll(async () => (await r.events(r.withCallback.id)).map((e) => [e.type, e.trunk.result])).toEqual([
      ['trunk.down', 'timeout'],
      ['trunk.up', '200 OK'],
    ]);
  });

  it('sip.options_interval_s = 0: no probe is ever sent, the state stays unknown', async () => {
    let probes = 0;
    const store = await tempStore(Date.now);
    const monitor = createTrunkMonitor({
      probe: async () => (probes++, { answered: true, code: 200, reason: 'OK', rttMs: 1 }),
      intervalMs: 0,
      server: '127.0.0.1:5060',
      store,
      clock: Date.now,
      log: createLogger('silent'),
    });
    monitor.start(); // with an interval the first probe is sent right here, synchronously
    expect(probes).toBe(0);
    expect(monitor.status()).toEqual({ reachable: null, lastProbeAt: null, lastProbeResult: null, lastProbeRttMs: null, changes: { down: 0, up: 0 } });
    expect(monitor.state()).toBe('none');
    await monitor.stop();
    await store.close();
  });
});
