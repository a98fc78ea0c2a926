import { Database } from 'bun:sqlite';
import { existsSync } from 'node:fs';
import { LATEST_VERSION } from './migration-steps';
import type { SqlConnection } from './sql/connection';

/** A copy that cannot be made; the message says why and what to do. Nothing was written. */
export class CopyRefusedError extends Error {
  override readonly name = 'CopyRefusedError';
}

export interface CopiedTable {
  table: string;
  rows: number;
}

export interface CopyOptions {
  /** store.path of the SQLite appliance. */
  from: string;
}

/**
 * The PostgreSQL side: runs `work` inside one transaction on one connection to an empty
 * PostgreSQL database (already migrated), and commits, or rolls back when `work` throws.
 */
export type PostgresTransaction = <T>(work: (db: SqlConnection) => Promise<T>) => Promise<T>;

/** Rows per INSERT, and bytes: a batch travels to the server as one JSON text. */
const BATCH_ROWS = 500;
const BATCH_BYTES = 1 << 20;

/**
 * `voice-alert migrate-to-postgres`: every row of a SQLite appliance into an empty
 * PostgreSQL database, as one consistent snapshot (one read transaction on the file) and
 * all or nothing (one transaction on the server, `transaction`). Tables come from the file
 * itself, so a table added by a later migration is never forgotten; parents before
 * children (their foreign keys). SQLite's implicit rowid is copied into PostgreSQL's
 * `rowid` column, so the queue keeps its order, and every identity sequence is moved past
 * the copied ids. Sealed secrets are copied as they are: the PostgreSQL appliances need
 * this file's secret.key.
 *
 * `transaction` is called once, and only after the file has passed its checks: a caller
 * may open (and migrate) the PostgreSQL database there, so a refused copy touches nothing.
 */
export async function copyToPostgres(o: CopyOptions, transaction: PostgresTransaction): Promise<CopiedTable[]> {
  if (!existsSync(o.from)) throw new CopyRefusedError(`no database at ${o.from} (--from): nothing to copy`);
  const source = new Database(o.from, { readonly: true });
  try {
    const version = (source.query('PRAGMA user_version').get() as { user_version: number }).user_version;
    const tables = tablesInOrder(source);
    if (!tables.includes('calls') || version === 0) throw new CopyRefusedError(`${o.from} is not a voice-alert database`);
    if (version !== LATEST_VERSION) {
      throw new CopyRefusedError(
        `${o.from} is at schema version ${version}, this program writes ${LATEST_VERSION}: start this version of voice-alert once on it (which migrates it), stop it, then copy`,
      );
    }
    source.run('BEGIN'); // one snapshot of the file, even with the appliance still running
    try {
      return await transaction(async (target) => {
        await refuseNonEmpty(target, tables);
        const copied: CopiedTable[] = [];
        for (const table of tables) copied.push({ table, rows: await copyTable(source, target, table) });
        await moveIdentitiesPastCopiedIds(target);
        return copied;
      });
    } finally {
      source.run('COMMIT');
    }
  } finally {
    source.close();
  }
}

/** Every table of the file, each after the tables its foreign keys point at. */
export function tablesInOrder(db: Database): string[] {
  const names = (db.query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`).all() as { name: string }[]).map(
    (r) => r.name,
  );
  const parents = new Map(
    names.map((n) => [n, (db.query(`SELECT "table" AS parent FROM pragma_foreign_key_list('${n}')`).all() as { parent: string }[]).map((r) => r.parent)]),
  );
  const ordered: string[] = [];
  const visit = (n: string, path: string[]) => {
    if (ordered.includes(n)) return;
    if (path.includes(n)) throw new Error(`foreign keys form a cycle: ${[...path, n].join(' → ')}`);
    for (const p of parents.get(n) ?? []) if (p !== n) visit(p, [...path, n]);
    ordered.push(n);
  };
  for (const n of names) visit(n, []);
  return ordered;
}

async function refuseNonEmpty(target: SqlConnection, tables: string[]): Promise<void> {
  for (const table of tables) {
    if (await target.query(`SELECT 1 AS found FROM ${table} LIMIT 1`).get()) {
      throw new CopyRefusedError(`the PostgreSQL database already holds data (table ${table}): copy only into an empty database`);
    }
  }
}

async function copyTable(source: Database, target: SqlConnection, table: string): Promise<number> {
  const columns = (source.query(`SELECT name FROM pragma_table_info('${table}') ORDER BY cid`).all() as { name: string }[]).map((c) => c.name);
  // A table with an implicit SQLite rowid has a `rowid` identity column on PostgreSQL (ddl.ts).
  const withRowid =
    (await target
      .query(`SELECT 1 AS found FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $t AND column_name = 'rowid'`)
      .get({ t: table })) !== null;
  const all = withRowid ? ['rowid', ...columns] : columns;
  const list = all.map((c) => `"${c}"`).join(', ');
  const insert = target.query(
    `INSERT INTO ${table} (${list}) ${withRowid ? 'OVERRIDING SYSTEM VALUE ' : ''}SELECT ${list} FROM jsonb_populate_recordset(NULL::${table}, CAST($rows AS text)::jsonb)`,
  );
  const select = source.query(`SELECT ${withRowid ? 'rowid AS "rowid", ' : ''}* FROM ${table} ORDER BY ${withRowid ? 'rowid' : '1'}`);
  let batch: string[] = [];
  let bytes = 0;
  let count = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await insert.run({ rows: `[${batch.join(',')}]` });
    batch = [];
    bytes = 0;
  };
  for (const row of select.iterate() as IterableIterator<Record<string, unknown>>) {
    const json = JSON.stringify(row, (_k, v) => (v instanceof Uint8Array ? `\\x${Buffer.from(v).toString('hex')}` : v));
    batch.push(json);
    bytes += json.length;
    count++;
    if (batch.length >= BATCH_ROWS || bytes >= BATCH_BYTES) await flush();
  }
  await flush();
  return count;
}

/** Identity columns continue after the largest copied value, not from 1 (duplicate keys). */
async function moveIdentitiesPastCopiedIds(target: SqlConnection): Promise<void> {
  const identities = (await target
    .query(`SELECT table_name AS t, column_name AS c FROM information_schema.columns WHERE table_schema = current_schema() AND is_identity = 'YES'`)
    .all()) as { t: string; c: string }[];
  for (const { t, c } of identities) {
    await target.query(`SELECT setval(pg_get_serial_sequence('${t}', '${c}'), COALESCE(max("${c}"), 0) + 1, false) AS v FROM ${t}`).get();
  }
}
