import { Database } from 'bun:sqlite';
import { SQL } from 'bun';

/**
 * A test's own look into an appliance's database, whichever store it runs on: SQL with `?`
 * parameters, as bun:sqlite takes them. For assertions and for breaking things on purpose;
 * the appliance itself never goes through here.
 */
export interface ApplianceDatabase {
  readonly dialect: 'sqlite' | 'postgres';
  query(sql: string): { get(...args: unknown[]): Promise<unknown>; all(...args: unknown[]): Promise<unknown[]> };
  run(sql: string): Promise<void>;
  close(): Promise<void>;
}

export function openApplianceDatabase(store: { path: string; url?: string }): ApplianceDatabase {
  if (!store.url) {
    const db = new Database(store.path);
    db.run('PRAGMA busy_timeout = 2000');
    return {
      dialect: 'sqlite',
      query: (sql) => ({
        get: async (...args) => db.query(sql).get(...(args as never[])),
        all: async (...args) => db.query(sql).all(...(args as never[])),
      }),
      run: async (sql) => void db.run(sql),
      close: async () => db.close(),
    };
  }
  const sql = new SQL({ url: store.url, max: 1, bigint: true });
  // `?` → `$1…`; int8 values arrive as bigint: made numbers, as SQLite gives them.
  const positional = (text: string) => {
    let n = 0;
    return text.replace(/\?/g, () => `$${++n}`);
  };
  const plain = (row: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v]));
  return {
    dialect: 'postgres',
    query(text) {
      return {
        get: async (...args) => {
          const rows = (await sql.unsafe(positional(text), args)) as Record<string, unknown>[];
          return rows[0] ? plain(rows[0]) : null;
        },
        all: async (...args) => ((await sql.unsafe(positional(text), args)) as Record<string, unknown>[]).map(plain),
      };
    },
    run: async (text) => void (await sql.unsafe(text).simple()),
    close: () => sql.close(),
  };
}
