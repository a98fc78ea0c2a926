import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testStoreUrl } from '../test/helpers/postgres';
import { startAppliance } from './appliance';
import { configSchema } from './config';
import { silentLogger } from './log';
import { createSchedulesService } from './schedules';
import { createStore, type Store } from './store';

/**
 * docs/high-availability.md "High availability": times compared across appliances come from the database's
 * clock (store/lease.ts). An appliance whose clock runs 6 h ahead, on one PostgreSQL, must
 * not act early on work that is due by the database: an on-call hand-off an hour away is not
 * announced (its watch compared "due" with the appliance's clock before issue 44).
 */
const HOUR = 3_600_000;
const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});

describe('an appliance whose clock is hours off, on one PostgreSQL', () => {
  it('announces no on-call hand-off before the database says it is due', async () => {
    const url = testStoreUrl()!;
    const path = join(mkdtempSync(join(tmpdir(), 'va-skew-')), 'voice-alert.db');
    const store = await createStore({ url, path, busyTimeoutMs: 1000, clock: Date.now });
    stores.push(store);
    const account = await store.transaction((tx) => tx.accounts.create({ name: 'a', plan: 'starter' }));
    await store.transaction((tx) => tx.outbox.setTarget(account.id, { url: 'http://127.0.0.1:9/cb', secret: 's' }));
    // A daily hand-off whose next one is about an hour from now (real time, the database's).
    const start = new Date(Date.now() - 23 * HOUR).toISOString().slice(0, 16);
    const created = await createSchedulesService({ store, clock: Date.now }).create(account.id, {
      name: 'noc',
      timeZone: 'UTC',
      layers: [{ participants: [{ name: 'A', number: '5321111111' }, { name: 'B', number: '5322222222' }], shift: '1d', start }],
    });
    if (!created.ok) throw new Error(JSON.stringify(created));
    expect(created.schedule.watchAt - Date.now()).toBeGreaterThan(HOUR / 2);

    const config = configSchema.parse({ http: { listen: '127.0.0.1:0' }, store: { url, path } });
    const ahead = await startAppliance({ config, log: silentLogger(), clock: () => Date.now() + 6 * HOUR });
    // The engine's first look of every loop ran at start; stop awaits each look under way.
    await ahead.stop();
    const events = (await store.outbox.recent(account.id, 100)).filter((e) => e.type === 'oncall.changed');
    expect(events).toEqual([]);
    expect((await store.schedules.get(created.schedule.id))!.watchAt).toBe(created.schedule.watchAt);
  });
});
