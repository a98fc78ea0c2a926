import { afterEach, describe, expect, it } from 'vitest';
import { applianceDir, provision } from '../helpers/appliance';
import { callbackRig } from '../helpers/callback-rig';
import { post } from '../helpers/http';
import { startSipp } from '../helpers/sipp';

/**
 * Outcome callbacks through the compiled binary: a receiver that hangs must not slow the
 * intake nor the dialling. A file of its own because it measures latency: it keeps the machine
 * to itself (vitest.config.ts), where callbacks.test.ts runs beside other waiting suites.
 */
const rig = callbackRig();
afterEach(() => rig.stopAll());

const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.99) - 1]!;

describe('outcome callbacks through the compiled binary, against a receiver that hangs', () => {
  it('a receiver that never answers does not slow POST /api/call nor the dialling', async () => {
    const total = 240;
    const sipp = rig.keepPeer(await startSipp({ scenario: 'final.xml', calls: total, fill: { code: 486, reason: 'Busy Here' } }));
    const dir = applianceDir(await rig.sipConfig(sipp.port));
    const acc = provision(dir, 'enterprise', ['--monthly-credit', '100000']);
    const hook = rig.receiver(() => '', () => 'hang');
    const app = await rig.start(dir);
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
