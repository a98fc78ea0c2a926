import type { Database } from 'bun:sqlite';

export type Dialect = 'sqlite' | 'postgres';

/** Named parameters (`$name` in the SQL, `{ name }` here), or none. */
export type SqlParams = Record<string, unknown> | undefined;

/** What a write statement reports: the rows it changed. */
export interface RunResult {
  changes: number;
}

/** One SQL statement, prepared once and run many times. */
export interface SqlStatement {
  run(params?: SqlParams): RunResult;
  /** See `changedAsExpected`; only PostgreSQL's statements have it. */
  runExpecting?(params: SqlParams, changes: number): boolean;
  get(params?: SqlParams): unknown;
  all(params?: SqlParams): unknown[];
  values(params?: SqlParams): unknown[][];
  finalize(): void;
}

/**
 * The one connection every table group of src/store talks through: bun:sqlite's API
 * shape (synchronous, named `$params`), which the PostgreSQL store also offers
 * (postgres/connection.ts), so each table group is written once for both stores. SQL that
 * must differ between them asks `dialect` (see dialect.ts); everything else is shared.
 */
export interface SqlConnection {
  readonly dialect: Dialect;
  /** A statement cached by its text (bun:sqlite's `query`). */
  query(sql: string): SqlStatement;
  /** A statement of its own, to finalize when done. */
  prepare(sql: string): SqlStatement;
  /** Runs SQL without parameters (DDL, transaction control); several statements allowed. */
  exec(sql: string): void;
  readonly inTransaction: boolean;
  close(): void;
}

/**
 * Runs a write that should change `changes` rows; true when it did. On PostgreSQL under
 * write-behind (postgres/connection.ts) it is held back like any write and taken to have:
 * the server refuses the transaction before its COMMIT if it did not, and the group
 * committer runs the batch again carefully, where this answers the truth.
 */
export function changedAsExpected(statement: SqlStatement, params: SqlParams, changes: number): boolean {
  return statement.runExpecting ? statement.runExpecting(params, changes) : statement.run(params).changes === changes;
}

/** The SQLite store's connection: bun:sqlite itself, which already has this shape. */
export function sqliteConnection(db: Database): SqlConnection {
  return {
    dialect: 'sqlite',
    query: (sql) => db.query(sql) as unknown as SqlStatement,
    prepare: (sql) => db.prepare(sql) as unknown as SqlStatement,
    exec: (sql) => void db.run(sql),
    get inTransaction() {
      return db.inTransaction;
    },
    close: () => db.close(),
  };
}
