import type { Database } from 'bun:sqlite';

/**
 * Group commit: writes that arrive in the same turn of the event loop share one
 * transaction and one fsync (synchronous=FULL). Each write's promise settles only
 * after that COMMIT returned, so a caller that answers on resolution never answers
 * before its write is durable.
 *
 * Each write runs under its own SAVEPOINT: one that throws is rolled back alone and
 * rejects alone; the others in its batch still commit.
 */
export interface GroupCommitter {
  /** Runs `write` inside the next batch; resolves with its result once committed. */
  run<T>(write: () => T): Promise<T>;
  /** Resolves when everything queued so far has committed. */
  flush(): Promise<void>;
  /** Commits what is queued and refuses new writes. */
  close(): Promise<void>;
}

interface Pending {
  write: () => unknown;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

export function createGroupCommitter(db: Database): GroupCommitter {
  let queue: Pending[] = [];
  let scheduled = false;
  let closed = false;

  const commitBatch = () => {
    scheduled = false;
    const batch = queue;
    queue = [];
    if (batch.length === 0) return;
    const results: { ok: boolean; value: unknown }[] = [];
    try {
      db.run('BEGIN IMMEDIATE');
      for (const p of batch) {
        db.run('SAVEPOINT w');
        try {
          results.push({ ok: true, value: p.write() });
          db.run('RELEASE w');
        } catch (e) {
          db.run('ROLLBACK TO w');
          db.run('RELEASE w');
          results.push({ ok: false, value: e });
        }
      }
      db.run('COMMIT');
    } catch (e) {
      // BEGIN or COMMIT failed (disk full, lock timeout): nothing in the batch is durable.
      try {
        if (db.inTransaction) db.run('ROLLBACK');
      } catch {
        /* the original error is the one worth reporting */
      }
      for (const p of batch) p.reject(e);
      return;
    }
    batch.forEach((p, i) => {
      const r = results[i]!;
      if (r.ok) p.resolve(r.value);
      else p.reject(r.value);
    });
  };

  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    // setImmediate runs after the I/O callbacks of this loop turn: every request
    // that reached this point in the same turn joins the batch.
    setImmediate(commitBatch);
  };

  return {
    run<T>(write: () => T): Promise<T> {
      if (closed) return Promise.reject(new Error('store is closing'));
      return new Promise<T>((resolve, reject) => {
        queue.push({ write, resolve: resolve as (v: unknown) => void, reject });
        schedule();
      });
    },
    flush() {
      if (queue.length === 0) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        queue.push({ write: () => undefined, resolve: () => resolve(), reject });
        schedule();
      });
    },
    async close() {
      await this.flush();
      closed = true;
    },
  };
}
