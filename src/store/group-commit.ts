import type { SqlConnection } from './sql/connection';
import { metrics } from '../metrics/instruments';
import { transactionControl } from './sql/transaction-control';

/**
 * Group commit: writes that arrive in the same turn of the event loop share one
 * transaction and one fsync (synchronous=FULL). Each write's promise settles only
 * after that COMMIT returned, so a caller that answers on resolution never answers
 * before its write is durable.
 *
 * Each write runs under its own SAVEPOINT: one that throws is rolled back alone and
 * rejects alone; the others in its batch still commit. On PostgreSQL, where each statement
 * is a round trip, a batch is first tried without savepoints and with its writes held back
 * (transaction-control.ts `optimistic`); if anything in it fails, it is rolled back and run
 * again that careful way. So a write may run twice: writes touch only the store (their
 * callers act on the result once it resolves).
 *
 * Two appliances' batches can deadlock on the key locks their writes take in batch order
 * (key-lock.ts). PostgreSQL then undoes one side's statement; a careful write undone that
 * way is not refused but run again in the next batch, up to CONFLICT_RUNS times in all, so
 * a race between appliances costs an alert a second, not a 500.
 */
export interface GroupCommitter {
  /** Runs `write` inside the next batch; resolves with its result once committed. */
  run<T>(write: () => T): Promise<T>;
  /**
   * Runs a single-statement write in the next batch with nobody waiting for it
   * (bookkeeping such as the API history). A failure goes to `onError`; SQLite undoes
   * a failed statement alone, so it needs no savepoint (PostgreSQL does not: there it gets one).
   */
  runDetached(write: () => void, onError: (e: unknown) => void): void;
  /** Resolves when everything queued so far has committed. */
  flush(): Promise<void>;
  /** Commits what is queued, refuses new writes, releases its prepared statements. */
  close(): Promise<void>;
  /**
   * Counters since start: transactions committed and writes they carried; optimistic batches
   * run again carefully; careful writes run again after losing a race (conflict).
   */
  stats(): { batches: number; writes: number; runAgain: number; conflictRuns: number };
}

interface Pending {
  write: () => unknown;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  /** Careful runs this write lost to another transaction (tx.isConflict). */
  conflicts: number;
}

/** Careful runs a write gets when it keeps losing races; the last conflict rejects it. */
export const CONFLICT_RUNS = 3;

interface Detached {
  write: () => void;
  onError: (e: unknown) => void;
}

export function createGroupCommitter(db: SqlConnection): GroupCommitter {
  let queue: Pending[] = [];
  let detached: Detached[] = [];
  let scheduled = false;
  let closed = false;
  let batches = 0;
  let writes = 0;
  let runAgain = 0;
  let conflictRuns = 0;
  const tx = transactionControl(db);

  const commitBatch = () => {
    scheduled = false;
    const batch = queue;
    const sideWrites = detached;
    queue = [];
    detached = [];
    if (batch.length === 0 && sideWrites.length === 0) return;
    if (tx.optimistic && commitOptimistically(tx.optimistic, batch, sideWrites)) return;
    commitCarefully(batch, sideWrites);
  };

  const committed = (n: number, stopTimer: () => void) => {
    stopTimer();
    metrics.groupCommitBatchSize.observe(n);
    batches++;
    writes += n;
  };

  /** False when the batch failed and may be run again carefully (nothing of it committed). */
  const commitOptimistically = (o: NonNullable<typeof tx.optimistic>, batch: Pending[], sideWrites: Detached[]): boolean => {
    const results: unknown[] = [];
    const stopTimer = metrics.groupCommitSeconds.startTimer();
    try {
      o.begin();
      for (const p of batch) results.push(p.write());
      for (const d of sideWrites) d.write();
      tx.commit();
    } catch (e) {
      try {
        o.end();
      } catch {
        /* the original error is the one worth reporting */
      }
      if (o.canRunAgain(e)) {
        runAgain++;
        return false;
      }
      for (const p of batch) p.reject(e);
      for (const d of sideWrites) d.onError(e);
      return true;
    }
    o.end();
    committed(batch.length + sideWrites.length, stopTimer);
    batch.forEach((p, i) => p.resolve(results[i]));
    return true;
  };

  const commitCarefully = (batch: Pending[], sideWrites: Detached[]) => {
    const results: { ok: boolean; value: unknown }[] = [];
    const stopTimer = metrics.groupCommitSeconds.startTimer();
    try {
      tx.begin();
      for (const p of batch) {
        tx.savepoint();
        try {
          results.push({ ok: true, value: p.write() });
          tx.release();
        } catch (e) {
          tx.rollbackToSavepoint();
          tx.release();
          results.push({ ok: false, value: e });
        }
      }
      const isolate = tx.failedStatementAbortsTransaction;
      for (const d of sideWrites) {
        if (isolate) tx.savepoint();
        try {
          d.write();
          if (isolate) tx.release();
        } catch (e) {
          if (isolate) {
            tx.rollbackToSavepoint();
            tx.release();
          }
          d.onError(e);
        }
      }
      tx.commit();
      committed(batch.length + sideWrites.length, stopTimer);
    } catch (e) {
      // BEGIN or COMMIT failed (disk full, lock timeout): nothing in the batch is durable.
      try {
        if (db.inTransaction) tx.rollback();
      } catch {
        /* the original error is the one worth reporting */
      }
      for (const p of batch) p.reject(e);
      for (const d of sideWrites) d.onError(e);
      return;
    }
    batch.forEach((p, i) => {
      const r = results[i]!;
      if (r.ok) return p.resolve(r.value);
      if (tx.isConflict(r.value) && ++p.conflicts < CONFLICT_RUNS) {
        // Nothing of it was committed (its savepoint was rolled back): run it again.
        conflictRuns++;
        queue.push(p);
        return schedule();
      }
      p.reject(r.value);
    });
  };

  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    // setImmediate runs after the I/O callbacks of this loop turn: every request
    // that reached this point in the same turn joins the batch.
    setImmediate(commitBatch);
  };

  // Resolves once an empty marker write queued behind everything has committed. A write
  // that lost a race goes back into the queue behind the marker: wait for it too (not for
  // writes that arrive meanwhile, so a flush under load still ends).
  const flush = async (): Promise<void> => {
    if (queue.length === 0 && detached.length === 0) return;
    do {
      await new Promise<void>((resolve, reject) => {
        queue.push({ write: () => undefined, resolve: () => resolve(), reject, conflicts: 0 });
        schedule();
      });
    } while (queue.some((p) => p.conflicts > 0));
  };

  return {
    run<T>(write: () => T): Promise<T> {
      if (closed) return Promise.reject(new Error('store is closing'));
      return new Promise<T>((resolve, reject) => {
        queue.push({ write, resolve: resolve as (v: unknown) => void, reject, conflicts: 0 });
        schedule();
      });
    },
    runDetached(write, onError) {
      if (closed) return onError(new Error('store is closing'));
      detached.push({ write, onError });
      schedule();
    },
    flush,
    async close() {
      await flush();
      closed = true;
      tx.finalize();
    },
    stats: () => ({ batches, writes, runAgain, conflictRuns }),
  };
}
