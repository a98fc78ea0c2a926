import type { RunResult, SqlConnection, SqlParams, SqlStatement } from '../connection';
import { bindOrder, toPositional, type PositionalSql } from '../named-params';
import { createPostgresBridge, type PostgresBridge } from './bridge';
import type { BridgeAnswer, BridgeRequest, QueryMode } from './protocol';

/** Transaction control that waits for the next statement (see `deferred`). */
const DEFERRABLE = new Set(['BEGIN', 'SAVEPOINT W', 'RELEASE W']);

/** How long statements fail at once after the server could not be reached. */
export const UNREACHABLE_BACKOFF_MS = 1000;

/** An error PostgreSQL answered, with its SQLSTATE (e.g. 23505 for a unique violation). */
export class PostgresError extends Error {
  override readonly name = 'PostgresError';
  constructor(
    message: string,
    readonly sqlState: string | undefined,
  ) {
    super(message);
  }
}

export interface PostgresConnectionOptions {
  url: string;
  /** How long one statement may take before it fails. */
  statementTimeoutMs: number;
}

/** The PostgreSQL store's connection, with bun:sqlite's shape (connection.ts) over the bridge. */
export function postgresConnection(o: PostgresConnectionOptions): SqlConnection & { totalChanges(): number } {
  const bridge: PostgresBridge = createPostgresBridge({ url: o.url, timeoutMs: o.statementTimeoutMs });
  const translated = new Map<string, PositionalSql>();
  let inTransaction = false;
  /** Rows changed through this connection, as SQLite's total_changes() (change-marker.ts). */
  let totalChanges = 0;

  /**
   * After the server could not be reached, statements fail at once for a while instead of
   * each waiting for its own connection attempt: the main thread waits for every round
   * trip, so a database that is gone must not cost every request `statementTimeoutMs`.
   * ROLLBACK always goes through: the worker waits for it after a lost transaction.
   */
  let unreachableUntil = 0;
  let unreachableBecause = '';
  /**
   * BEGIN, SAVEPOINT and RELEASE answer nothing we wait for: they travel with the next
   * statement instead of costing a round trip of their own (the main thread waits for every
   * round trip; under load these were half of them). A failure of one is the failure of
   * that next statement. COMMIT and the rollbacks go at once: the caller acts on their outcome.
   */
  let deferred: string[] = [];
  const call = (request: BridgeRequest): BridgeAnswer & { ok: true } => {
    if (deferred.length > 0) {
      request.before = deferred;
      deferred = [];
    }
    const rollback = request.op === 'exec' && request.sql.trim().toUpperCase() === 'ROLLBACK';
    if (!rollback && performance.now() < unreachableUntil) throw new PostgresError(`database unreachable: ${unreachableBecause}`, undefined);
    let answer: BridgeAnswer;
    try {
      answer = bridge.call(request);
    } catch (e) {
      // The bridge gave up waiting (bridge.ts): the server did not answer in time.
      unreachable((e as Error).message);
      throw e;
    }
    if (!answer.ok) {
      if (answer.lost) unreachable(answer.message);
      throw new PostgresError(answer.message, answer.sqlState);
    }
    return answer;
  };
  const unreachable = (why: string) => {
    unreachableBecause = why;
    unreachableUntil = performance.now() + UNREACHABLE_BACKOFF_MS;
  };

  const statement = (text: string): SqlStatement => {
    let positional = translated.get(text);
    if (!positional) {
      positional = toPositional(quoteCamelAliases(text));
      translated.set(text, positional);
    }
    const { sql, names } = positional;
    // Over-counting is harmless (the change marker only moves more often); missing a write is not.
    const writes = !/^\s*SELECT\b/i.test(text);
    const run = (mode: QueryMode, params: SqlParams) => {
      const answer = call({ op: 'query', sql, params: bindOrder(names, params), mode });
      if (writes) totalChanges += answer.changes ?? 0;
      return answer;
    };
    return {
      run: (params): RunResult => ({ changes: run('run', params).changes ?? 0 }),
      get: (params) => run('get', params).rows?.[0] ?? null,
      all: (params) => run('all', params).rows ?? [],
      values: (params) => (run('values', params).rows ?? []) as unknown[][],
      finalize: () => undefined,
    };
  };

  return {
    dialect: 'postgres',
    query: statement,
    prepare: statement,
    exec(sql) {
      const word = sql.trim().toUpperCase();
      if (DEFERRABLE.has(word)) {
        deferred.push(sql);
        if (word === 'BEGIN') inTransaction = true;
        return;
      }
      try {
        call({ op: 'exec', sql });
        if (word.startsWith('BEGIN')) inTransaction = true;
      } finally {
        // A failed COMMIT/ROLLBACK still ends the transaction on the server.
        if (word === 'COMMIT' || word === 'ROLLBACK') inTransaction = false;
      }
    },
    get inTransaction() {
      return inTransaction;
    },
    totalChanges: () => totalChanges,
    close: () => bridge.close(),
  };
}

/**
 * PostgreSQL folds unquoted names to lower case, SQLite keeps them: `request_id AS
 * requestId` must come back as `requestId` from both, so camelCase aliases are quoted.
 */
export function quoteCamelAliases(sql: string): string {
  return sql.replace(/\bAS\s+([a-z][a-z0-9]*[A-Z][A-Za-z0-9]*)\b/g, 'AS "$1"');
}
