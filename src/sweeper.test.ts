import { afterEach, describe, expect, it } from 'vitest';
import { manualClock, tempStore } from '../test/helpers/memory-store';
import { configSchema } from './config';
import { createRateLimiter } from './http';
import { silentLogger } from './log';
import type { HistoryEntry, Store } from './store';
import { createSweeper } from './sweeper';

let store: Store;
afterEach(() => store?.close());

const DAY_MS = 86_400_000;

describe('the appliance sweeper', () => {
  it('a round prunes API history past store.history_days and store.history_max_rows', async () => {
    const clock = manualClock('2026-11-15T12:00:00Z');
    store = await tempStore(clock);
    const config = configSchema.parse({ store: { history_days: 7, history_max_rows: 1000 } });
    const at = (t: number, i: number): HistoryEntry => ({
      at: t,
      requestId: `r${i}`,
      endpoint: '/api/call',
      sourceIp: '127.0.0.1',
      status: 200,
      message: 'Call queued',
      accountId: 'acc_1',
      credentialId: null,
    });
    await store.transaction(async (tx) => {
      for (let i = 0; i < 5000; i++) await tx.history.record(at(clock() - 8 * DAY_MS, i)); // too old
      for (let i = 0; i < 1500; i++) await tx.history.record(at(clock() - DAY_MS, 5000 + i)); // recent, over the cap
    });
    const sweeper = createSweeper({ store, rateLimiter: createRateLimiter(60, clock), clock, log: silentLogger(), config });
    try {
      await sweeper.tick();
      const rows = await store.history.list({ limit: 5000 });
      expect(rows).toHaveLength(1000);
      expect(rows.at(-1)!.requestId).toBe('r5500'); // the newest 1000 stay
    } finally {
      await sweeper.end();
    }
  });
});
