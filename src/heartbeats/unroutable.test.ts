import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { createFallbackService } from '../accounts';
import { createPoliciesService } from '../escalation';
import { silentLogger } from '../log';
import { metrics } from '../metrics';
import { createSchedulesService } from '../schedules';
import type { Store } from '../store';
import { createHeartbeatChecker, createHeartbeatService } from '.';

/**
 * Contract "Nothing silently calls nobody" for heartbeats: a late heartbeat whose policy
 * reaches nobody (a gap in the rota) raises its alert with why, counts it, calls back
 * `alert.unroutable` and calls the account's fallback. On SQLite, as heartbeats.test.ts (the
 * checker's leases follow the injected clock there: dialect.ts).
 */
const TZ = 'Europe/Istanbul';
const FALLBACK = '5329999999';
const GAP = 'step 1: schedule backup has nobody on call';

let clock: ReturnType<typeof manualClock>;
let store: Store;

beforeEach(async () => {
  // Friday 2026-11-20 17:50 in Istanbul: the office-hours layer ends in 10 minutes.
  clock = manualClock('2026-11-20T14:50:00Z');
  store = await tempStore(clock);
});
afterEach(() => store.close());

const unroutableCount = async () => (await metrics.alertsUnroutable.get()).values.reduce((n, v) => n + v.value, 0);

describe('a heartbeat whose policy resolves to nobody', () => {
  it('raises its alert with the warning, counts it, calls back and calls the fallback', async () => {
    const acc = await store.transaction((tx) => tx.accounts.create({ name: 't', plan: 'starter', monthlyCredit: 100 }));
    await store.transaction((tx) => tx.outbox.setTarget(acc.id, { url: 'http://127.0.0.1:1/cb', secret: 's' }));
    const office = [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', to: '18:00' }];
    const s = await createSchedulesService({ store, clock }).create(acc.id, {
      name: 'backup',
      timeZone: TZ,
      layers: [{ participants: [{ name: 'Ayşe', number: '5321111111' }], shift: '7d', start: '2026-11-02T09:00', restrictions: office }],
    });
    expect(s.ok).toBe(true);
    expect((await createPoliciesService({ store, clock }).create(acc.id, { name: 'evening', steps: [{ schedules: ['backup'], wait_s: 300 }] })).ok).toBe(true);
    expect((await createFallbackService({ store, clock }).set(acc.id, { phone: FALLBACK })).ok).toBe(true);
    const service = createHeartbeatService({ store, clock, timeZone: TZ });
    const hb = await service.create(acc.id, { name: 'nightly', interval_s: 60, grace_s: 0, policy: 'evening' });
    if (!hb.ok) throw new Error(JSON.stringify(hb));
    const checker = createHeartbeatChecker({ store, clock, log: silentLogger(), node: 'n', leaseMs: 30_000, language: 'en', timeZone: TZ });
    await checker.startUp();
    await service.ping(hb.pingUrl.replace('/heartbeat/', ''));
    clock.set('2026-11-20T15:05:00Z'); // 18:05 local: late, and nobody on call in backup
    const before = await unroutableCount();
    await checker.tick();
    await checker.end();
    const alert = (await store.alerts.findOpen(acc.id, `heartbeat:${hb.heartbeat.id}`))!;
    expect(alert).toMatchObject({ source: 'heartbeat', unroutable: GAP });
    expect((await store.calls.ofAlert(alert.id)).map((c) => [c.phoneNumber, c.escalationOrdinal])).toEqual([[FALLBACK, 0]]);
    expect(await unroutableCount()).toBe(before + 1);
    const events = (await store.outbox.recent(acc.id, 50)).filter((e) => e.type === 'alert.unroutable').map((e) => JSON.parse(e.body) as Record<string, unknown>);
    expect(events).toEqual([expect.objectContaining({ reason: GAP, alert: expect.objectContaining({ id: alert.id }) })]);
    // Pinged and late again, still in the gap: the metric counts unroutable alerts as the
    // alert.unroutable callbacks do, one each, never a miss that joined one already counted.
    await service.ping(hb.pingUrl.replace('/heartbeat/', ''));
    clock.set('2026-11-20T15:10:00Z');
    await checker.tick();
    await checker.end();
    const unroutableEvents = (await store.outbox.recent(acc.id, 50)).filter((e) => e.type === 'alert.unroutable');
    expect(unroutableEvents.length).toBeGreaterThanOrEqual(1);
    expect(await unroutableCount()).toBe(before + unroutableEvents.length);
  });
});
