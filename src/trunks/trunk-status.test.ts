import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../log';
import { tempStore } from '../../test/helpers/memory-store';
import type { Store } from '../store';
import { createTrunkMonitor, probeIsUp } from './trunk-monitor';
import { aggregateStatus, checkTrunkStates } from './trunk-status';
import type { TrunkEntryStatus } from './trunk-set';

const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});

const entry = (name: string, state: TrunkEntryStatus['state'], o: Partial<TrunkEntryStatus> = {}): TrunkEntryStatus => ({
  name,
  server: `${name}.example:5060`,
  state,
  started: true,
  registered: null,
  lastError: null,
  reachable: state === 'none' ? null : state === 'up',
  lastProbeAt: null,
  lastProbeResult: null,
  lastProbeRttMs: null,
  changes: { down: 0, up: 0 },
  ...o,
});

describe('trunk states (docs/telephony.md "SIP trunks: several, in order")', () => {
  it('a probe is up on a final answer other than 408/503; down on none, 408, 503', () => {
    expect(probeIsUp({ answered: true, code: 200, reason: 'OK', rttMs: 1 })).toBe(true);
    expect(probeIsUp({ answered: true, code: 407, reason: 'Proxy Authentication Required', rttMs: 1 })).toBe(true);
    expect(probeIsUp({ answered: true, code: 404, reason: 'Not Found', rttMs: 1 })).toBe(true);
    expect(probeIsUp({ answered: true, code: 503, reason: 'Service Unavailable', rttMs: 1 })).toBe(false);
    expect(probeIsUp({ answered: true, code: 408, reason: 'Request Timeout', rttMs: 1 })).toBe(false);
    expect(probeIsUp({ answered: false, failure: 'timeout', reason: 'no final response', rttMs: 3200 })).toBe(false);
    expect(probeIsUp({ answered: false, failure: 'transport', reason: 'ECONNREFUSED', rttMs: 1 })).toBe(false);
  });

  it('/healthz checks: each trunk by name; trunk up while any is not down; none without trunks', () => {
    const s = aggregateStatus([entry('a', 'down'), entry('b', 'up'), entry('c', 'none')], false);
    expect(checkTrunkStates(s)).toEqual({ trunk: 'up', trunks: { a: 'down', b: 'up', c: 'none' } });
    expect(s).toMatchObject({ state: 'up', reachable: true });
    const allDown = aggregateStatus([entry('a', 'down'), entry('b', 'down')], false);
    expect(checkTrunkStates(allDown)).toEqual({ trunk: 'down', trunks: { a: 'down', b: 'down' } });
    expect(allDown.reachable).toBe(false);
    // A trunk whose socket has not started yet carries no call.
    const starting = aggregateStatus([entry('a', 'down', { started: false, lastError: 'EADDRINUSE' })], false);
    expect(starting).toMatchObject({ state: 'starting', lastError: 'EADDRINUSE' });
    expect(checkTrunkStates(starting).trunk).toBe('down');
    expect(checkTrunkStates({ state: 'not_configured', registered: null, lastError: null, reachable: null, lastProbeAt: null, lastProbeResult: null, lastProbeRttMs: null, changes: { down: 0, up: 0 } })).toEqual({
      trunk: 'none',
      trunks: {},
    });
    expect(aggregateStatus([entry('a', 'up')], true).state).toBe('stopped');
  });

  it('several trunks: changes add up, errors are named, registered when any registering trunk holds a binding', () => {
    const s = aggregateStatus(
      [
        entry('a', 'down', { changes: { down: 2, up: 1 }, registered: false, lastError: '403 Forbidden', lastProbeAt: 5, lastProbeResult: 'timeout' }),
        entry('b', 'up', { changes: { down: 1, up: 1 }, registered: true, lastProbeAt: 9, lastProbeResult: '200 OK', lastProbeRttMs: 4 }),
      ],
      false,
    );
    expect(s).toMatchObject({ changes: { down: 3, up: 2 }, registered: true, lastError: 'a: 403 Forbidden', lastProbeAt: 9, lastProbeResult: '200 OK', lastProbeRttMs: 4 });
  });

  it('mark(): a self-test marks a trunk down and up; each edge logged and sent as trunk.down / trunk.up with the trunk', async () => {
    const store = await tempStore(Date.now);
    stores.push(store);
    const account = await store.transaction((tx) => tx.accounts.create({ name: 'noc', plan: 'starter' }));
    await store.transaction((tx) => tx.outbox.setTarget(account.id, { url: 'http://127.0.0.1:1/cb', secret: 's' }));
    const lines: Record<string, unknown>[] = [];
    const monitor = createTrunkMonitor({
      name: 'carrier',
      probe: async () => ({ answered: true, code: 200, reason: 'OK', rttMs: 1 }),
      intervalMs: 0,
      server: '192.0.2.7:5060',
      store,
      clock: Date.now,
      log: createLogger('info', { write: (s: string) => lines.push(JSON.parse(s)) }),
    });
    expect(monitor.state()).toBe('none');
    await monitor.mark(false, 'self-test: no echo');
    expect(monitor.state()).toBe('down');
    await monitor.mark(false, 'self-test: no echo'); // no edge, nothing more
    await monitor.mark(true, 'self-test passed');
    expect(monitor.state()).toBe('up');
    expect(monitor.status().changes).toEqual({ down: 1, up: 1 });
    const events = (await store.outbox.recent(account.id, 10)).reverse().map((e) => JSON.parse(e.body));
    expect(events.map((e) => [e.type, e.trunk])).toEqual([
      ['trunk.down', { name: 'carrier', server: '192.0.2.7:5060', reachable: false, result: 'self-test: no echo' }],
      ['trunk.up', { name: 'carrier', server: '192.0.2.7:5060', reachable: true, result: 'self-test passed' }],
    ]);
    expect(lines.filter((l) => l.component === 'trunk-monitor').map((l) => [l.msg, l.trunk])).toEqual([
      ['sip trunk down: check failed', 'carrier'],
      ['sip trunk up: check passed', 'carrier'],
    ]);
    await monitor.stop();
  });
});
