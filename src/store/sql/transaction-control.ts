import type { SqlConnection } from './connection';
import { PostgresError, type WriteBehindConnection } from './postgres/connection';

/**
 * BEGIN, COMMIT and savepoints for the group committer, per store. SQLite's are prepared
 * once (they run for every request under load) and BEGIN IMMEDIATE takes the write lock
 * up front; PostgreSQL's go as plain commands (its row locks make IMMEDIATE meaningless).
 */
export interface TransactionControl {
  begin(): void;
  commit(): void;
  rollback(): void;
  savepoint(): void;
  release(): void;
  rollbackToSavepoint(): void;
  /**
   * PostgreSQL aborts the whole transaction when one statement fails; SQLite undoes that
   * statement alone. Where it does, even a single statement needs a savepoint of its own.
   */
  readonly failedStatementAbortsTransaction: boolean;
  /**
   * PostgreSQL: a batch may first be tried without savepoints, its writes held back until
   * the next statement waited for (write-behind), so a batch costs a few round trips
   * instead of several per write. Any failure rolls the whole batch back; `canRunAgain`
   * says whether it may then be run again carefully (nothing of it can have committed).
   * Absent for SQLite, whose statements cost no round trip.
   */
  readonly optimistic?: {
    begin(): void;
    /** Turns write-behind off; rolls back if the transaction is still open. */
    end(): void;
    canRunAgain(e: unknown): boolean;
  };
  /**
   * The write lost a deadlock or a serialization race with another appliance's transaction:
   * the server undid it, and the same write run again in a later transaction may well pass.
   * Never on SQLite (one writer at a time).
   */
  isConflict(e: unknown): boolean;
  finalize(): void;
}

/** deadlock_detected, serialization_failure: the SQLSTATEs of a transaction that lost a race. */
const CONFLICT_STATES = new Set(['40P01', '40001']);

export function transactionControl(db: SqlConnection): TransactionControl {
  if (db.dialect === 'postgres') {
    const pg = db as WriteBehindConnection;
    return {
      begin: () => db.exec('BEGIN'),
      commit: () => db.exec('COMMIT'),
      rollback: () => db.exec('ROLLBACK'),
      savepoint: () => db.exec('SAVEPOINT w'),
      release: () => db.exec('RELEASE w'),
      rollbackToSavepoint: () => db.exec('ROLLBACK TO w'),
      failedStatementAbortsTransaction: true,
      optimistic: {
        begin() {
          db.exec('BEGIN');
          pg.writeBehind = true;
        },
        end() {
          pg.writeBehind = false;
          if (db.inTransaction) db.exec('ROLLBACK');
        },
        // A connection lost mid-way may have lost it after COMMIT reached the server: the
        // batch may be durable, and running it again could queue its calls twice.
        canRunAgain: (e) => !(e instanceof PostgresError && e.lost),
      },
      isConflict: (e) => e instanceof PostgresError && e.sqlState !== undefined && CONFLICT_STATES.has(e.sqlState),
      finalize: () => undefined,
    };
  }
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const savepoint = db.prepare('SAVEPOINT w');
  const release = db.prepare('RELEASE w');
  const rollbackTo = db.prepare('ROLLBACK TO w');
  return {
    begin: () => void begin.run(),
    commit: () => void commit.run(),
    rollback: () => db.exec('ROLLBACK'),
    savepoint: () => void savepoint.run(),
    release: () => void release.run(),
    rollbackToSavepoint: () => void rollbackTo.run(),
    failedStatementAbortsTransaction: false,
    isConflict: () => false,
    // Unfinalized statements would keep SQLite from closing (and checkpointing) the file.
    finalize: () => [begin, commit, savepoint, release, rollbackTo].forEach((s) => s.finalize()),
  };
}
