import { SQL, type ReservedSQL } from 'bun';
import type { Logger } from '../../../log';
import { migratePostgres } from '../../migrations';
import type { SqlConnection, SqlParams } from '../connection';
import type { CommitObserver, SqlDatabase } from '../database';
import { DatabaseUnavailableError } from '../unavailable';
import { createBackgroundBatcher } from './background-batcher';
import { postgresConnection } from './connection';
import { isConflict, isConnectionLost } from './errors';
import { firstFailure, newSlot, type Slot } from './slot';
import { reconnectPauses, retryingReader, unavailableIfSo } from './waiting';

export interface PostgresOptions {
  url: string;
  /** store.timeout_ms: how long a unit of work (or a read) may wait for the database in all. */
  timeoutMs: number;
  /** Connections in the pool (store.pool_size). */
  poolSize: number;
  log?: Logger;
  onCommit?: CommitObserver;
}

/** A unit that keeps losing races is refused after this many runs (README "High availability"). */
export const CONFLICT_RUNS = 5;

/**
 * Cross-node staleness of the change marker: PostgreSQL has no cheap "another connection
 * committed" counter, and the other connections are other appliances. So the marker moves
 * every second: a change made through another appliance (a key revoked there) is seen here
 * within a second; one made through this appliance to a table the intake's lookup cache keeps
 * (connection.ts LOOKED_UP) moves it at once.
 */
export const CROSS_NODE_STALENESS_MS = 1000;

/** Thrown inside a unit's run to have the whole unit run again (nothing of it committed). */
class RunAgain extends Error {
  constructor(override readonly cause: unknown) {
    super('run again');
  }
}

/**
 * The PostgreSQL store: a pool of connections (Bun.SQL), one transaction per unit of work
 * on a connection of its own, nothing blocking the event loop.
 *
 * - A unit that loses a deadlock or a serialization race (40P01, 40001) runs again as a
 *   whole, at most CONFLICT_RUNS times.
 * - A connection the server ends (57P01 on a restart or failover, a reset socket) is closed,
 *   never given back to the pool; the unit on it runs again on another when it surely did
 *   not commit. When the COMMIT itself was lost, the transaction's id (taken at BEGIN) is
 *   looked up (`pg_xact_status`) before anything runs twice.
 * - Everything waits at most `timeoutMs` in all, then fails with DatabaseUnavailableError
 *   (503). The server ends our statements, lock waits and forgotten transactions by the same
 *   limits, and its TCP keepalive notices an appliance that vanished.
 */
export async function openPostgres(o: PostgresOptions): Promise<SqlDatabase> {
  let changes = 0;
  const counted = () => void changes++;
  const sql = new SQL({
    url: o.url,
    max: o.poolSize,
    // int8 columns (unix ms, counts) arrive exact and are made numbers (connection.ts).
    bigint: true,
    idleTimeout: 60,
    connectionTimeout: Math.max(1, Math.ceil(o.timeoutMs / 1000)),
    connection: {
      application_name: 'voice-alert',
      statement_timeout: o.timeoutMs,
      lock_timeout: o.timeoutMs,
      idle_in_transaction_session_timeout: Math.max(2 * o.timeoutMs, 10_000),
      // The server's side of the socket: a host that vanished is noticed in ~10 s, and
      // whatever its connections held (row locks, a transaction) is let go.
      tcp_keepalives_idle: 5,
      tcp_keepalives_interval: 2,
      tcp_keepalives_count: 3,
    },
  });
  let batches = 0;
  let alones = 0;
  let runAgain = 0;
  let closed = false;
  const inFlight = new Set<Promise<unknown>>();
  const reader = retryingReader(postgresConnection(() => sql, counted), o.timeoutMs);
  // A transaction's SqlConnection, kept for the next transaction once this one ended: the
  // table groups made over it (the store's view of a transaction) are made once per slot,
  // not once per transaction. At most one slot per connection of the pool is in use.
  const freeSlots: Slot[] = [];
  const slotFor = (conn: ReservedSQL): Slot => {
    const slot = freeSlots.pop() ?? newSlot();
    slot.client = conn;
    slot.sent = [];
    slot.lookedUp = false;
    return slot;
  };
  const release = (slot: Slot) => {
    slot.client = null;
    freeSlots.push(slot);
  };

  const runOnce = async <T>(work: (db: SqlConnection) => Promise<T>, deadline: number): Promise<T> => {
    const conn = await reserve(sql, deadline);
    const expire = setTimeout(() => void conn.close().catch(() => undefined), Math.max(0, deadline - performance.now()));
    let xid: string | null = null;
    let committing = false;
    let value: T;
    const slot = slotFor(conn);
    try {
      // BEGIN and the id travel with the unit's first statement. Written as tagged templates:
      // Bun.SQL pipelines those (the extended protocol), while `unsafe` without parameters is
      // a simple query that waits for every answer before it and is waited for by what
      // follows, a round trip of its own (BENCHMARKS.md "The asynchronous store").
      const begin = conn`BEGIN`.execute();
      const id = conn`SELECT pg_current_xact_id()::text AS xid`.execute();
      begin.catch(() => undefined);
      id.catch(() => undefined);
      value = await work(slot.connection);
      await begin;
      xid = ((await id) as { xid: string }[])[0]!.xid;
      committing = true;
      // COMMIT goes out behind what was sent and not yet answered (one round trip for all).
      // PostgreSQL answers the COMMIT of a transaction a statement failed in with a rollback,
      // not an error: a failure among them is the unit's failure.
      const commit = conn`COMMIT`.execute();
      commit.catch(() => undefined);
      const failed = await firstFailure(slot.sent);
      // A statement the server refused: nothing committed. A lost connection is not the
      // server's answer: the COMMIT may have landed, and is looked up below.
      if (failed !== null && !isConnectionLost(failed.reason)) {
        committing = false;
        await commit.catch(() => undefined);
        throw failed.reason;
      }
      await commit;
      // Counted once committed: a request in between would read the old row, and keep it.
      if (slot.lookedUp) counted();
    } catch (caught) {
      clearTimeout(expire);
      // A statement waited for fails after a sent one failed ("transaction is aborted"): the
      // sent one's error is the cause (a deadlock there is a conflict to run again).
      const e = (await firstFailure(slot.sent))?.reason ?? caught;
      const lookedUp = slot.lookedUp;
      release(slot);
      if (isConnectionLost(e) || performance.now() >= deadline) {
        void conn.close().catch(() => undefined);
        if (!committing) throw new RunAgain(e);
        const committed = await committedAnyway(sql, xid!, value!, e, deadline);
        if (lookedUp) counted();
        return committed;
      }
      // An answer from the server: the connection is sound, the transaction is to be undone.
      await conn`ROLLBACK`
        .execute()
        .then(() => conn.release())
        .catch(() => conn.close().catch(() => undefined));
      if (isConflict(e)) throw new RunAgain(e);
      throw e;
    }
    clearTimeout(expire);
    release(slot);
    void conn.release();
    return value;
  };

  /**
   * Runs a unit (`once`, given the deadline) until it resolves: again after a lost race (at
   * most CONFLICT_RUNS runs) or a lost connection (after a pause: a restart takes a moment;
   * runOnce asks for that only when the unit surely did not commit, aloneOnce always, its
   * statement being safe to run twice), everything within store.timeout_ms.
   */
  const retried = async <T>(once: (deadline: number) => Promise<T>): Promise<T> => {
    if (closed) throw new Error('store is closing');
    const deadline = performance.now() + o.timeoutMs;
    let conflicts = 0;
    const pauses = reconnectPauses();
    for (;;) {
      try {
        const started = performance.now();
        const value = await once(deadline);
        o.onCommit?.(1, (performance.now() - started) / 1000);
        batches++;
        return value;
      } catch (e) {
        if (!(e instanceof RunAgain)) throw unavailableIfSo(e, deadline);
        runAgain++;
        if (isConflict(e.cause)) {
          if (++conflicts >= CONFLICT_RUNS) throw e.cause;
          continue;
        }
        if (!pauses.fitBefore(deadline)) throw unavailableIfSo(e.cause, deadline, true);
        await pauses.sleep();
      }
    }
  };
  const transaction = <T>(work: (db: SqlConnection) => Promise<T>): Promise<T> => retried((deadline) => runOnce(work, deadline));

  // A one-statement unit (SqlDatabase.alone): autocommit on a connection of its own, which is
  // closed when the time is up (a frozen server must not answer it after we gave up).
  const aloneOnce = async (text: string, params: SqlParams, deadline: number): Promise<unknown[]> => {
    const conn = await reserve(sql, deadline);
    const expire = setTimeout(() => void conn.close().catch(() => undefined), Math.max(0, deadline - performance.now()));
    const slot = slotFor(conn);
    try {
      const rows = await slot.connection.query(text).all(params);
      clearTimeout(expire);
      if (slot.lookedUp) counted(); // autocommit: answered means committed
      release(slot);
      void conn.release();
      return rows;
    } catch (e) {
      clearTimeout(expire);
      release(slot);
      if (isConnectionLost(e) || performance.now() >= deadline) {
        void conn.close().catch(() => undefined);
        throw new RunAgain(e);
      }
      void conn.release();
      if (isConflict(e)) throw new RunAgain(e);
      throw e;
    }
  };

  const alone = async (text: string, params: SqlParams): Promise<unknown[]> => {
    const rows = await retried((deadline) => aloneOnce(text, params, deadline));
    alones++;
    return rows;
  };

  const tracked = <T>(p: Promise<T>): Promise<T> => {
    inFlight.add(p);
    const done = () => inFlight.delete(p);
    p.then(done, done);
    return p;
  };

  const background = createBackgroundBatcher(transaction, tracked);
  const marker = { slice: -1, changes: -1, value: 0 };
  return {
    dialect: 'postgres',
    reader,
    transaction: (work) => tracked(transaction(work)),
    alone: (text, params) => tracked(alone(text, params)),
    background: (work, onError) => background.add(work, onError),
    async flush() {
      await background.flush();
      await Promise.allSettled([...inFlight]);
    },
    async changeMarker() {
      const slice = Math.floor(performance.now() / CROSS_NODE_STALENESS_MS);
      if (slice !== marker.slice || changes !== marker.changes) {
        marker.slice = slice;
        marker.changes = changes;
        marker.value++;
      }
      return marker.value;
    },
    stats: () => ({ batches, writes: batches, runAgain, alone: alones }),
    async close() {
      closed = true;
      await Promise.allSettled([...inFlight]);
      await sql.close({ timeout: 1 });
    },
  };
}

/** Opens the pool and brings the schema up to date (migrations.ts), or fails. */
export async function openMigratedPostgres(o: PostgresOptions): Promise<SqlDatabase> {
  const db = await openPostgres(o);
  try {
    await db.transaction((tx) => migratePostgres(tx, o.log));
  } catch (e) {
    await db.close();
    throw e;
  }
  return db;
}

/** A connection of the pool for one unit, waiting at most until `deadline`. */
async function reserve(sql: SQL, deadline: number): Promise<ReservedSQL> {
  const wait = Math.max(1, deadline - performance.now());
  try {
    return await sql.reserve({ signal: AbortSignal.timeout(wait) });
  } catch (e) {
    if (performance.now() >= deadline) throw new DatabaseUnavailableError('no connection to the database in time');
    // Refused or reset while connecting: the unit runs again after a pause, as after a lost connection.
    throw new RunAgain(e);
  }
}

/**
 * The connection broke while COMMIT was on its way: it may or may not have landed. Asks
 * the server what became of the transaction, by its id, before the unit could run twice.
 */
async function committedAnyway<T>(sql: SQL, xid: string, value: T, cause: unknown, deadline: number): Promise<T> {
  const pauses = reconnectPauses();
  while (performance.now() < deadline) {
    try {
      const [row] = (await sql.unsafe('SELECT pg_xact_status($1::xid8) AS status', [xid]).execute()) as { status: string | null }[];
      if (row?.status === 'committed') return value;
      if (row?.status === 'aborted') throw new RunAgain(cause);
      // 'in progress': the server has not yet seen the connection go; ask again.
    } catch (e) {
      if (e instanceof RunAgain) throw e;
    }
    await pauses.sleep();
  }
  throw new DatabaseUnavailableError('the outcome of a COMMIT could not be learnt in time');
}
