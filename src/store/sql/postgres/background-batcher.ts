import type { SqlConnection } from '../connection';
import { DatabaseUnavailableError } from '../unavailable';

type Transaction = <T>(work: (db: SqlConnection) => Promise<T>) => Promise<T>;

export interface BackgroundBatcher {
  /** Queues a write nobody waits for; `onError` hears of its failure. */
  add(work: (db: SqlConnection) => Promise<void>, onError: (e: unknown) => void): void;
  /** Resolves once every write queued so far was committed (or reported). */
  flush(): Promise<void>;
}

/**
 * Bookkeeping writes nobody waits for (the API history) share one transaction: one COMMIT
 * for many requests, not one per request. One such transaction is under way at a time;
 * what arrives meanwhile waits for it and goes in the next, so under load the batches grow
 * with the commit's latency (one per loop turn was ~1.75 requests each: a BEGIN, id and
 * COMMIT per two requests, BENCHMARKS.md). When a batch fails for a reason of one write,
 * each runs alone, so only the bad one reports.
 */
export function createBackgroundBatcher(transaction: Transaction, tracked: <T>(p: Promise<T>) => Promise<T>): BackgroundBatcher {
  let queued: { work: (db: SqlConnection) => Promise<void>; onError: (e: unknown) => void }[] = [];
  let running: Promise<void> | null = null;
  const runNext = () => {
    if (queued.length === 0 || running) return;
    const batch = queued;
    queued = [];
    const run = transaction(async (db) => {
      for (const b of batch) await b.work(db);
    }).catch(async (e) => {
      if (e instanceof DatabaseUnavailableError || batch.length === 1) return batch.forEach((b) => b.onError(e));
      await Promise.all(batch.map((b) => transaction(b.work).catch(b.onError)));
    });
    running = tracked(
      run.finally(() => {
        running = null;
        runNext();
      }),
    );
  };
  return {
    add(work, onError) {
      queued.push({ work, onError });
      // The first of a turn schedules the batch; while one runs, the next starts when it ends.
      if (queued.length === 1 && !running) setImmediate(runNext);
    },
    async flush() {
      // A batch that ends starts the one that waited for it: until none is left.
      runNext();
      while (running) await running;
    },
  };
}
