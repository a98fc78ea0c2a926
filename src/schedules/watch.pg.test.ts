import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testStoreUrl } from '../../test/helpers/postgres';
import { silentLogger } from '../log';
import { createStore, type Store } from '../store';
import { createOncallWatch, createSchedulesService } from '.';

/**
 * docs/on-call.md "On-call schedules" and docs/high-availability.md: three appliances on one
 * PostgreSQL watch the same schedules; each hand-off is one `oncall.changed`, whoever claims it.
 */
const stores: Store[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

describe('oncall.changed on one PostgreSQL, several appliances', () => {
  it('each change of each schedule is written exactly once', async () => {
    let now = Date.parse('2026-11-16T05:00:00Z');
    const clock = () => now;
    const url = testStoreUrl()!;
    const dir = mkdtempSync(join(tmpdir(), 'va-pg-watch-'));
    for (let i = 0; i < 3; i++) stores.push(await createStore({ path: join(dir, `unused-${i}.db`), url, busyTimeoutMs: 1000, clock }));
    const [first] = stores;
    const account = await first!.transaction((tx) => tx.accounts.create({ name: 't', plan: 'starter' }));
    await first!.transaction((tx) => tx.outbox.setTarget(account.id, { url: 'http://127.0.0.1:1/cb', secret: 's' }));
    const service = createSchedulesService({ store: first!, clock });
    for (let i = 0; i < 12; i++) {
      const r = await service.create(account.id, {
        name: `s${i}`,
        timeZone: 'Europe/Istanbul',
        layers: [{ participants: [{ name: 'A', number: '5321111111' }, { name: 'B', number: '5322222222' }], shift: '1h', start: '2026-11-16T08:00' }],
      });
      expect(r.ok).toBe(true);
    }
    const watches = stores.map((store) => createOncallWatch({ store, clock, log: silentLogger(), leaseMs: 30_000 }));
    // Three hourly hand-offs of twelve schedules, looked at by all three appliances at once.
    for (const hour of ['06:00:01', '07:00:01', '08:00:01']) {
      now = Date.parse(`2026-11-16T${hour}Z`);
      await Promise.all(watches.map((w) => w.tick()));
      await Promise.all(watches.map((w) => w.tick()));
    }
    const events = (await first!.outbox.recent(account.id, 1000)).filter((e) => e.type === 'oncall.changed').map((e) => JSON.parse(e.body));
    expect(events).toHaveLength(36);
    const keys = new Set(events.map((e) => `${e.schedule}@${e.at}`));
    expect(keys.size).toBe(36);
  });
});
