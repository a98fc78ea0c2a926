import { afterEach, describe, expect, it } from 'vitest';
import { tempStore } from '../../test/helpers/memory-store';
import { silentLogger } from '../log';
import type { Store } from '../store';
import { createTrunkMonitor } from './trunk-monitor';

const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});

describe('a failed self-test holds the trunk down (docs/telephony.md "Voice-path self-test")', () => {
  it('an answered probe does not lift it; a passed self-test does, and probes count again after it', async () => {
    const store = await tempStore(Date.now);
    stores.push(store);
    const monitor = createTrunkMonitor({ name: 'pbx', probe: async () => ({ answered: true, code: 200, reason: 'OK', rttMs: 1 }), intervalMs: 0, server: '192.0.2.7:5060', store, clock: Date.now, log: silentLogger() });
    const answered = { answered: true as const, code: 200, reason: 'OK', rttMs: 1 };
    await monitor.observe(answered);
    expect(monitor.state()).toBe('up');
    await monitor.mark(false, 'self-test failed: no echo');
    expect(monitor.state()).toBe('down');
    await monitor.observe(answered); // the PBX answers; the voice path is still broken
    expect(monitor.state()).toBe('down');
    expect(monitor.status().lastProbeResult).toBe('200 OK'); // the probe itself is still shown
    await monitor.mark(true, 'self-test passed: echo');
    expect(monitor.state()).toBe('up');
    await monitor.observe({ answered: false, failure: 'timeout', reason: 'timeout', rttMs: 0 });
    expect(monitor.state()).toBe('down');
    await monitor.observe(answered);
    expect(monitor.state()).toBe('up');
    await monitor.stop();
  });
});
