import type { RunResult, SqlConnection, SqlParams, SqlStatement } from '../connection';
import { bindOrder, toPositional, type PositionalSql } from '../named-params';
import { createPostgresBridge, type PostgresBridge } from './bridge';
import type { BridgeAnswer, BridgeRequest, QueryMode } from './protocol';

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

  const call = (request: BridgeRequest): BridgeAnswer & { ok: true } => {
    const answer = bridge.call(request);
    if (!answer.ok) throw new PostgresError(answer.message, answer.sqlState);
    return answer;
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
