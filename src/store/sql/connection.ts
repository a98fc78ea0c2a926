import type { Database, Statement } from 'bun:sqlite';
import { writesLookedUp } from './looked-up';

export type Dialect = 'sqlite' | 'postgres';

/** Named parameters (`$name` in the SQL, `{ name }` here), or none. */
export type SqlParams = Record<string, unknown> | undefined;

/** What a write statement reports: the rows it changed. */
export interface RunResult {
  changes: number;
}

/** One SQL statement, made once from its text and run many times. */
export interface SqlStatement {
  run(params?: SqlParams): Promise<RunResult>;
  /**
   * A write whose result nobody reads, inside a transaction: sent now, in order with the
   * transaction's other statements, but not waited for here. On PostgreSQL it travels with
   * the next statement waited for (Bun.SQL pipelines a connection's queries), and the COMMIT
   * fails the unit of work if it failed; SQLite runs it at once. Never outside a transaction.
   */
  send(params?: SqlParams): void;
  /** The first row, or null. */
  get(params?: SqlParams): Promise<unknown>;
  all(params?: SqlParams): Promise<unknown[]>;
  values(params?: SqlParams): Promise<unknown[][]>;
}

/**
 * What every table group of src/store talks through: one connection, or one transaction
 * on a connection. Asynchronous, so a database that is slow makes a caller wait and never
 * blocks the event loop (docs/high-availability.md). Named `$params` on both stores; SQL
 * that must differ between them asks `dialect` (dialect.ts); everything else is shared.
 */
export interface SqlConnection {
  readonly dialect: Dialect;
  /** A statement for this text (cheap: made once per text and connection). */
  query(sql: string): SqlStatement;
  /** Runs SQL without parameters (DDL); several statements allowed. */
  exec(sql: string): Promise<void>;
}

/**
 * A bun:sqlite connection behind the asynchronous shape. SQLite answers at once (a local
 * file, no round trip), so each promise is already settled: a unit of work of several
 * statements still runs within one turn of the event loop (unit-of-work/sqlite.ts relies on
 * it to keep its group commit). `onLookedUpWrite` hears a statement that changed a table
 * the intake's lookup cache keeps (looked-up.ts), before its transaction commits.
 */
export function sqliteConnection(db: Database, onLookedUpWrite: () => void = () => undefined): SqlConnection {
  const statements = new Map<string, SqlStatement>();
  const wrap = (s: Statement): SqlStatement => ({
    run: (params) => settled(() => ({ changes: s.run(params as never).changes })),
    // A failure throws here, so the unit of work fails at the statement that caused it.
    send: (params) => void s.run(params as never),
    get: (params) => settled(() => s.get(params as never) ?? null),
    all: (params) => settled(() => s.all(params as never)),
    values: (params) => settled(() => s.values(params as never)),
  });
  // A write to a looked-up table is told of when it changed a row (RETURNING's reads: always).
  const told = (s: SqlStatement): SqlStatement => ({
    run: async (params) => {
      const r = await s.run(params);
      if (r.changes > 0) onLookedUpWrite();
      return r;
    },
    send: (params) => {
      s.send(params);
      onLookedUpWrite();
    },
    get: (params) => s.get(params).finally(onLookedUpWrite),
    all: (params) => s.all(params).finally(onLookedUpWrite),
    values: (params) => s.values(params).finally(onLookedUpWrite),
  });
  return {
    dialect: 'sqlite',
    query(sql) {
      let s = statements.get(sql);
      if (!s) {
        // bun:sqlite's own cache (query) finalizes these when the database closes.
        s = wrap(db.query(sql));
        if (writesLookedUp(sql)) s = told(s);
        statements.set(sql, s);
      }
      return s;
    },
    exec: (sql) => settled(() => void db.run(sql)),
  };
}

/** A synchronous SQLite call as a settled promise: a throw becomes a rejection, never an exception at the call. */
function settled<T>(f: () => T): Promise<T> {
  try {
    return Promise.resolve(f());
  } catch (e) {
    return Promise.reject(e);
  }
}
