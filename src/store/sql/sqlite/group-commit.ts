import type { Database } from 'bun:sqlite';
import type { SqlConnection } from '../connection';
import type { CommitObserver, TransactionStats } from '../database';
import { DatabaseUnavailableError } from '../unavailable';
import { beginWhenFree } from './write-lock';

/**
 * Group commit for SQLite: the units of work that arrive in the same turn of the event
 * loop share one transaction and one fsync (synchronous=FULL). Each unit's promise settles
 * only after that COMMIT returned, so a caller that answers on resolution never answers
 * before its write is durable.
 *
 * The units of a batch run one after another on the one write connection, each under its
 * own SAVEPOINT: one that throws is rolled back alone and rejects alone; the others still
 * commit. SQLite answers every statement at once (sqliteConnection settles each promise
 * before it returns), so a whole batch still runs within one turn of the event loop, and a
 * unit never sees another's half-done work. A unit that awaits something else only delays
 * its batch: units arriving meanwhile wait for the next one.
 *
 * A unit run `unguarded` has no savepoint of its own. SQLite copies every page a savepoint's
 * unit first changes into the statement journal: ~11 pages (one per B-tree it writes) and
 * ~5 µs of CPU for a plain request (BENCHMARKS.md "Pages a group commit writes; the savepoint
 * a plain request paid for"). If such a unit throws, what it half did cannot be told apart
 * from the rest of its batch: the batch is rolled back and every unit in it rejected, as when
 * COMMIT fails.
 *
 * While another process holds the write lock, the batch waits for it on a timer
 * (write-lock.ts), and units that arrive meanwhile join it. A unit that has waited
 * `lockWaitMs` (store.busy_timeout_ms) is rejected with DatabaseUnavailableError: the HTTP
 * edge answers `503 Database unavailable` and nothing of it was written.
 */
export interface GroupCommitter {
  run<T>(work: (db: SqlConnection) => Promise<T>): Promise<T>;
  /**
   * Like `run`, without the unit's own SAVEPOINT; a throw rolls back the whole batch. Only
   * for a unit whose statements fail only when the database itself does (UnitOptions.savepoint).
   */
  unguarded<T>(work: (db: SqlConnection) => Promise<T>): Promise<T>;
  /** A single-statement write nobody waits for; SQLite undoes a failed statement alone, so it needs no savepoint. */
  runDetached(work: (db: SqlConnection) => Promise<void>, onError: (e: unknown) => void): void;
  flush(): Promise<void>;
  close(): Promise<void>;
  stats(): TransactionStats;
}

interface Pending {
  work: (db: SqlConnection) => Promise<unknown>;
  /** Runs under a SAVEPOINT of its own (false: `unguarded`). */
  guarded: boolean;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  /** performance.now() when it was queued: how long it has waited for the lock. */
  since: number;
}

interface Detached {
  work: (db: SqlConnection) => Promise<void>;
  onError: (e: unknown) => void;
  since: number;
}

/** Nothing of a batch was written: every unit and side write in it hears why. */
function failAll(batch: Pending[], sideWrites: Detached[], e: unknown): void {
  for (const p of batch) p.reject(e);
  for (const d of sideWrites) d.onError(e);
}

export interface GroupCommitOptions {
  /** How long a unit waits for a write lock another process holds (store.busy_timeout_ms). */
  lockWaitMs: number;
  onCommit?: CommitObserver;
}

export function createGroupCommitter(raw: Database, db: SqlConnection, { lockWaitMs, onCommit = () => {} }: GroupCommitOptions): GroupCommitter {
  let queue: Pending[] = [];
  let detached: Detached[] = [];
  let scheduled = false;
  let running: Promise<void> | null = null;
  let closed = false;
  let batches = 0;
  let writes = 0;
  let unguarded = 0;
  // Prepared once: they run for every batch under load. BEGIN IMMEDIATE takes the write
  // lock up front, so another process makes us wait (for the lock, before any unit runs)
  // rather than fail mid-way.
  const begin = raw.prepare('BEGIN IMMEDIATE');
  const commit = raw.prepare('COMMIT');
  const savepoint = raw.prepare('SAVEPOINT w');
  const release = raw.prepare('RELEASE w');
  const rollbackTo = raw.prepare('ROLLBACK TO w');

  // Before each pause for the lock: units that waited lockWaitMs leave the queue, rejected;
  // false when nobody is left waiting.
  const dropOverdue = (): boolean => {
    const now = performance.now();
    const overdue = new DatabaseUnavailableError(`another process held the database's write lock for ${lockWaitMs} ms`);
    queue = queue.filter((p) => now - p.since < lockWaitMs || (p.reject(overdue), false));
    detached = detached.filter((d) => now - d.since < lockWaitMs || (d.onError(overdue), false));
    return queue.length > 0 || detached.length > 0;
  };

  const commitBatch = async () => {
    scheduled = false;
    if (queue.length === 0 && detached.length === 0) return;
    try {
      if (!(await beginWhenFree(() => begin.run(), dropOverdue))) return;
    } catch (e) {
      // BEGIN failed for another reason than a lock (an I/O error): nothing was written.
      const [batch, sideWrites] = [queue, detached];
      [queue, detached] = [[], []];
      return failAll(batch, sideWrites, e);
    }
    // Taken once the lock is ours: what arrived while it was waited for is in this batch.
    const batch = queue;
    const sideWrites = detached;
    queue = [];
    detached = [];
    const results: { ok: boolean; value: unknown }[] = [];
    const started = performance.now();
    let unguardedInBatch = 0;
    try {
      for (const p of batch) {
        if (!p.guarded) {
          // A throw leaves the loop for the catch below: the whole batch is rolled back.
          results.push({ ok: true, value: await p.work(db) });
          unguardedInBatch++;
          continue;
        }
        savepoint.run();
        try {
          results.push({ ok: true, value: await p.work(db) });
          release.run();
        } catch (e) {
          rollbackTo.run();
          release.run();
          results.push({ ok: false, value: e });
        }
      }
      for (const d of sideWrites) {
        try {
          await d.work(db);
        } catch (e) {
          d.onError(e);
        }
      }
      commit.run();
    } catch (e) {
      // COMMIT failed (disk full), or an unguarded unit threw: nothing in the batch is durable.
      try {
        if (raw.inTransaction) raw.run('ROLLBACK');
      } catch {
        /* the original error is the one worth reporting */
      }
      return failAll(batch, sideWrites, e);
    }
    onCommit(batch.length + sideWrites.length, (performance.now() - started) / 1000);
    batches++;
    writes += batch.length + sideWrites.length;
    unguarded += unguardedInBatch;
    batch.forEach((p, i) => {
      const r = results[i]!;
      if (r.ok) p.resolve(r.value);
      else p.reject(r.value);
    });
  };

  const schedule = () => {
    if (scheduled || running) return;
    scheduled = true;
    // setImmediate runs after the I/O callbacks of this loop turn: every request
    // that reached this point in the same turn joins the batch.
    setImmediate(() => {
      running = commitBatch().finally(() => {
        running = null;
        if (queue.length > 0 || detached.length > 0) schedule();
      });
    });
  };

  const enqueue = <T>(work: (db: SqlConnection) => Promise<T>, guarded: boolean): Promise<T> => {
    if (closed) return Promise.reject(new Error('store is closing'));
    return new Promise<T>((resolve, reject) => {
      queue.push({ work, guarded, resolve: resolve as (v: unknown) => void, reject, since: performance.now() });
      schedule();
    });
  };

  // Resolves once an empty unit queued behind everything has committed.
  const flush = async (): Promise<void> => {
    if (queue.length === 0 && detached.length === 0 && !running) return;
    await new Promise<void>((resolve, reject) => {
      queue.push({ work: async () => undefined, guarded: true, resolve: () => resolve(), reject, since: performance.now() });
      schedule();
    });
  };

  return {
    run: (work) => enqueue(work, true),
    unguarded: (work) => enqueue(work, false),
    runDetached(work, onError) {
      if (closed) return onError(new Error('store is closing'));
      detached.push({ work, onError, since: performance.now() });
      schedule();
    },
    flush,
    async close() {
      await flush();
      closed = true;
      // Unfinalized statements would keep SQLite from closing (and checkpointing) the file.
      for (const s of [begin, commit, savepoint, release, rollbackTo]) s.finalize();
    },
    stats: () => ({ batches, writes, runAgain: 0, unguarded }),
  };
}
