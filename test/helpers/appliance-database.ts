import { Database } from 'bun:sqlite';
import { postgresConnection } from '../../src/store/sql/postgres/connection';

/**
 * A test's own look into an appliance's database, whichever store it runs on: SQL with `?`
 * parameters, as bun:sqlite takes them. For assertions and for breaking things on purpose;
 * the appliance itself never goes through here.
 */
export interface ApplianceDatabase {
  readonly dialect: 'sqlite' | 'postgres';
  query(sql: string): { get(...args: unknown[]): unknown; all(...args: unknown[]): unknown[] };
  run(sql: string): void;
  close(): void;
}

export function openApplianceDatabase(store: { path: string; url?: string }): ApplianceDatabase {
  if (!store.url) {
    const db = new Database(store.path);
    db.run('PRAGMA busy_timeout = 2000');
    return {
      dialect: 'sqlite',
      query: (sql) => db.query(sql) as never,
      run: (sql) => void db.run(sql),
      close: () => db.close(),
    };
  }
  const db = postgresConnection({ url: store.url, statementTimeoutMs: 5_000 });
  const named = (sql: string, args: unknown[]) => {
    let n = 0;
    const text = sql.replace(/\?/g, () => `$p${n++}`);
    return { text, params: Object.fromEntries(args.map((v, i) => [`p${i}`, v])) };
  };
  return {
    dialect: 'postgres',
    query(sql) {
      return {
        get: (...args) => {
          const { text, params } = named(sql, args);
          return db.query(text).get(params);
        },
        all: (...args) => {
          const { text, params } = named(sql, args);
          return db.query(text).all(params);
        },
      };
    },
    run: (sql) => db.exec(sql),
    close: () => db.close(),
  };
}
