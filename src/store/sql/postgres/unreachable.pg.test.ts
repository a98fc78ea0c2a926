import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerEatingRelay } from '../../../../test/helpers/answer-eating-relay';
import { freePort } from '../../../../test/helpers/ports';
import { psql, startPostgresCluster, type PostgresCluster } from '../../../../test/helpers/postgres';
import { largestTickGap } from '../../../../test/helpers/tick-gap';
import { createStore, DatabaseUnavailableError, type Store } from '../..';

// A cluster of its own: this test stops the server under a live pool.
let cluster: PostgresCluster;
beforeAll(async () => {
  cluster = startPostgresCluster(await freePort());
});
afterAll(() => cluster?.stop());

const TIMEOUT_MS = 1000;
/** What a rejection may take beyond store.timeout_ms: a pause before the last try, a slow machine. */
const MARGIN_MS = 1000;

function openStore(baseUrl = cluster.baseUrl, poolSize = 2): Promise<Store> {
  const dir = mkdtempSync(join(tmpdir(), 'va-unreachable-'));
  return createStore({ path: join(dir, 'voice-alert.db'), url: `${baseUrl}postgres`, busyTimeoutMs: 1000, timeoutMs: TIMEOUT_MS, poolSize, clock: Date.now });
}

/** How long `p` took to settle, and how. */
async function timed<T>(p: () => Promise<T>): Promise<{ ms: number; error: unknown }> {
  const t0 = performance.now();
  try {
    await p();
    return { ms: performance.now() - t0, error: null };
  } catch (e) {
    return { ms: performance.now() - t0, error: e };
  }
}

describe('PostgreSQL going away under a live pool', () => {
  it('a read and a transaction fail with DatabaseUnavailableError within store.timeout_ms, never blocking the event loop; both work again once it is back', async () => {
    const store = await openStore();
    try {
      await store.transaction((tx) => tx.accounts.create({ name: 'before', plan: 'starter' }));
      expect(await store.accounts.count()).toBe(1);
      cluster.halt();
      try {
        const { gap, result } = await largestTickGap(async () => {
          const read = await timed(() => store.accounts.count());
          const write = await timed(() => store.transaction((tx) => tx.accounts.create({ name: 'lost', plan: 'starter' })));
          return { read, write };
        });
        expect(result.status).toBe('fulfilled');
        const { read, write } = (result as PromiseFulfilledResult<{ read: { ms: number; error: unknown }; write: { ms: number; error: unknown } }>).value;
        expect(read.error).toBeInstanceOf(DatabaseUnavailableError);
        expect(write.error).toBeInstanceOf(DatabaseUnavailableError);
        expect(read.ms).toBeLessThan(TIMEOUT_MS + MARGIN_MS);
        expect(write.ms).toBeLessThan(TIMEOUT_MS + MARGIN_MS);
        expect(gap).toBeLessThan(100);
      } finally {
        cluster.resume();
      }
      // The same store, not reopened: its pool connects again.
      expect(await store.accounts.count()).toBe(1);
      await store.transaction((tx) => tx.accounts.create({ name: 'after', plan: 'starter' }));
      expect((await store.accounts.list()).map((a) => a.name).sort()).toEqual(['after', 'before']);
    } finally {
      await store.close();
    }
  });

  it('a transaction whose connection was killed before COMMIT is run again as a whole, and written once', async () => {
    const store = await openStore();
    try {
      let runs = 0;
      const before = store.stats().runAgain;
      await store.transaction(async (tx) => {
        runs++;
        await tx.accounts.create({ name: 'once', plan: 'starter' });
        if (runs === 1) {
          // Another client ends this appliance's connections (an administrator, a failover).
          psql(cluster.baseUrl, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'voice-alert' AND pid <> pg_backend_pid()`);
        }
      });
      expect(runs).toBe(2);
      expect(store.stats().runAgain - before).toBe(1);
      expect((await store.accounts.list()).filter((a) => a.name === 'once')).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  it('a COMMIT whose answer was lost with its connection is looked up by the transaction id, not run again: written once, its result returned', async () => {
    const relay = await answerEatingRelay(new URL(cluster.baseUrl).port, 'COMMIT');
    // One connection, so the warm-up below prepares the unit's statements on the one the unit runs on.
    const store = await openStore(cluster.baseUrl.replace(/:\d+\//, `:${relay.port}/`), 1);
    try {
      const unit = (name: string, requestId: string) =>
        store.transaction(async (tx) => {
          runs++;
          await tx.accounts.create({ name, plan: 'starter' });
          // From here the server's answers are held back and lost with the COMMIT's: the answer
          // to this write, sent and not waited for, among them (Bun.SQL pipelines a prepared
          // statement and the COMMIT behind it, hence the warm-up).
          relay.armed = name === 'committed';
          await tx.history.record({ at: Date.now(), requestId, endpoint: 'webhook', sourceIp: '127.0.0.1', status: 200, message: 'Success', accountId: null, credentialId: null });
          return name;
        });
      let runs = 0;
      await unit('warm-up', 'req_warm_up');
      runs = 0;
      const before = store.stats().runAgain;
      const name = await unit('committed', 'req_lost_commit');
      expect(relay.eaten).toBe(1);
      expect(name).toBe('committed');
      expect(runs).toBe(1);
      expect(store.stats().runAgain - before).toBe(0);
      expect((await store.accounts.list()).filter((a) => a.name === 'committed')).toHaveLength(1);
      expect(await store.history.count()).toBe(2);
    } finally {
      await store.close();
      relay.close();
    }
  });
});
