import type { SQL } from 'bun';
import type { RunResult, SqlConnection, SqlParams, SqlStatement } from '../connection';
import { writesLookedUp } from '../looked-up';
import { bindOrder, toPositional, type PositionalSql } from '../named-params';

/** Statement texts rewritten for PostgreSQL, shared by every connection: a text is rewritten once per process. */
const translated = new Map<string, PositionalSql>();

function translate(text: string): PositionalSql {
  let positional = translated.get(text);
  if (!positional) {
    positional = toPositional(quoteCamelAliases(text));
    translated.set(text, positional);
  }
  return positional;
}

/**
 * The SqlConnection shape over a Bun.SQL client: the pool (each statement on whichever
 * connection is free, autocommit) or one reserved connection inside a transaction. `client`
 * is asked at each statement, so one SqlConnection (and the table groups made over it) serves
 * one transaction after another (database.ts). Rows come back as bun:sqlite gives them (int8
 * as number, booleans as 0/1), so the table groups read both stores alike. `onLookedUpChange`
 * hears a write to a table the lookup cache keeps.
 */
export function postgresConnection(
  client: () => SQL,
  onLookedUpChange: () => void = () => undefined,
  /** Receives what `send` started (a transaction's connection waits for them before COMMIT); absent: `send` is refused. */
  onSent?: (sent: Promise<unknown>) => void,
): SqlConnection {
  const statements = new Map<string, SqlStatement>();
  const statement = (text: string): SqlStatement => {
    const { sql, names } = translate(text);
    const looksUp = writesLookedUp(text);
    const execute = async (params: SqlParams): Promise<unknown[] & { count?: number }> => {
      const result = (await client().unsafe(sql, bindOrder(names, params)).execute()) as unknown[] & { count?: number };
      if (looksUp && result.count) onLookedUpChange();
      return result;
    };
    return {
      run: async (params): Promise<RunResult> => ({ changes: (await execute(params)).count ?? 0 }),
      send(params) {
        if (!onSent) throw new Error('send() is for a transaction: outside one, nothing would wait for it');
        const sent = execute(params);
        sent.catch(() => undefined); // waited for (and its failure reported) before COMMIT
        onSent(sent);
      },
      get: async (params) => {
        const rows = await execute(params);
        return rows.length > 0 ? plainRow(rows[0]) : null;
      },
      all: async (params) => (await execute(params)).map(plainRow),
      values: async (params) => {
        const rows = (await client().unsafe(sql, bindOrder(names, params)).values()) as unknown[][];
        return rows.map((row) => row.map(plain));
      },
    };
  };
  return {
    dialect: 'postgres',
    query(text) {
      let s = statements.get(text);
      if (!s) {
        s = statement(text);
        statements.set(text, s);
      }
      return s;
    },
    async exec(sql) {
      await client().unsafe(sql).simple();
    },
  };
}

/** Values as bun:sqlite gives them: int8 as number, booleans as 0/1. */
function plain(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  return v;
}

function plainRow(row: unknown): unknown {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row as Record<string, unknown>)) out[k] = plain(v);
  return out;
}

/**
 * PostgreSQL folds unquoted names to lower case, SQLite keeps them: `request_id AS
 * requestId` must come back as `requestId` from both, so camelCase aliases are quoted.
 */
export function quoteCamelAliases(sql: string): string {
  return sql.replace(/\bAS\s+([a-z][a-z0-9]*[A-Z][A-Za-z0-9]*)\b/g, 'AS "$1"');
}
