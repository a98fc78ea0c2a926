import type { Dialect, SqlConnection, SqlParams } from './connection';

/**
 * One store's database, whichever it is: where reads go, and how a unit of work (an
 * accepted request, a claim, a call's state change) runs as one transaction.
 *
 * A unit's `work` receives the transaction's connection and MUST touch only the store
 * through it: it may run more than once (PostgreSQL runs a unit that lost a deadlock or a
 * serialization race, or whose connection broke before COMMIT, again as a whole), so side
 * effects (SIP, HTTP, log lines that promise something) happen after it resolves.
 */
export interface SqlDatabase {
  readonly dialect: Dialect;
  /** Reads outside any transaction: they never wait for a commit (SQLite: a second connection; PostgreSQL: the pool). */
  readonly reader: SqlConnection;
  /** Runs `work` in one transaction; resolves with its result once COMMIT returned. */
  transaction<T>(work: (db: SqlConnection) => Promise<T>, options?: UnitOptions): Promise<T>;
  /**
   * PostgreSQL only (absent on SQLite, whose group commit already shares one fsync among many
   * units): a unit of work that is ONE statement, run as its own transaction (no BEGIN, no
   * COMMIT: one round trip instead of three or more). Resolves with its rows. A statement the
   * server refused changed nothing; after a lost connection or a lost race it runs again, so
   * it MUST be safe to run twice: it inserts rows under ids its caller chose, and a second run
   * after a first that committed fails on their primary key (the caller then finds them).
   */
  alone?(text: string, params: SqlParams): Promise<unknown[]>;
  /**
   * Runs a single-statement bookkeeping write (the API history) with nobody waiting for
   * it, in the next batch of such writes; a failure goes to `onError`.
   */
  background(work: (db: SqlConnection) => Promise<void>, onError: (e: unknown) => void): void;
  /** Resolves when everything queued so far has committed. */
  flush(): Promise<void>;
  /**
   * Moves whenever a table the intake's lookup cache keeps may have changed since the
   * previous call (sql/looked-up.ts): at once for this store's own committed writes, within
   * the store's staleness for another process's or appliance's (sqlite/database.ts,
   * postgres/database.ts).
   */
  changeMarker(): Promise<number>;
  /** Counters since start, for tests and benchmarks. */
  stats(): TransactionStats;
  /** Commits what is queued, refuses new work, closes the connections. */
  close(): Promise<void>;
}

/** How a unit of work is run; every unit is a `transaction`, these only tune it. */
export interface UnitOptions {
  /**
   * SQLite (ignored on PostgreSQL, whose units each have a transaction of their own): false
   * runs the unit in the group commit without the SAVEPOINT that lets it be rolled back alone
   * (sqlite/group-commit.ts), saving the ~5 µs SQLite spends copying the pages it first
   * touches; a throw then rolls back its whole batch and rejects every unit in it. Only for a
   * unit whose statements fail only when the database itself does: a plain request's charge,
   * alert and calls (intake/enqueue.ts), in which nothing but its statements can throw.
   * Default true.
   */
  savepoint?: boolean;
}

/**
 * Told of every committed transaction: the units of work it carried and the seconds from
 * BEGIN to COMMIT. The appliance hands the store its metrics this way (appliance.ts), so
 * the store imports nothing above it.
 */
export type CommitObserver = (units: number, seconds: number) => void;

export interface TransactionStats {
  /** Transactions committed. */
  batches: number;
  /** Units of work (and background writes) they carried. */
  writes: number;
  /** Units run again as a whole: a lost race (40001/40P01) or a connection that broke before COMMIT. */
  runAgain: number;
  /** Of the transactions, those that were one statement on its own (SqlDatabase.alone; PostgreSQL). */
  alone?: number;
  /** Of the units committed, those that ran without a savepoint of their own (UnitOptions.savepoint false; SQLite). */
  unguarded?: number;
}
