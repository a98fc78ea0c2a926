import type { Dialect } from './connection';

/**
 * The few SQL spellings that differ between SQLite and PostgreSQL, in one place. Table
 * groups build the statements that need one of these once, when they are created.
 */
export interface SqlDialect {
  /** The larger of two values (SQLite's two-argument max()). */
  greatest(a: string, b: string): string;
  /** The smaller of two values (SQLite's two-argument min()). */
  least(a: string, b: string): string;
  /** `a` differs from `b`, NULL being a value (SQLite's IS NOT). */
  distinct(a: string, b: string): string;
  /** A FROM item: the elements of a JSON array parameter, one row each, as column `value` (text). */
  jsonTexts(param: string): string;
  /** A FROM item: the objects of a JSON array parameter, one row each, as column `value` (for `value ->> 'k'`). */
  jsonObjects(param: string): string;
  /** Case-insensitive equality on a column declared COLLATE NOCASE in SQLite. */
  equalsNoCase(column: string, param: string): string;
  /** An insert that replaces the row holding the same key (SQLite's INSERT OR REPLACE). */
  insertOrReplace(table: string, columns: string[], key: string[]): string;
  /**
   * The time leases are taken and compared by, in unix ms: on PostgreSQL the database's own
   * clock, the one clock every appliance sharing it agrees on (docs/high-availability.md);
   * on SQLite, whose one appliance is the only clock, the parameter given (the caller's clock).
   */
  leaseClock(param: string): string;
  /**
   * A column in a WHERE clause that SQLite's planner must not take an index for (its `+`
   * prefix), so a join is driven from the other side; PostgreSQL's planner needs no hint.
   */
  unindexed(column: string): string;
  /** Row locks for a claim: rows another appliance is taking right now are passed over (PostgreSQL), nothing on SQLite. */
  skipLocked: string;
}

const sqlite: SqlDialect = {
  greatest: (a, b) => `MAX(${a}, ${b})`,
  least: (a, b) => `MIN(${a}, ${b})`,
  distinct: (a, b) => `${a} IS NOT ${b}`,
  jsonTexts: (p) => `json_each(${p})`,
  jsonObjects: (p) => `json_each(${p})`,
  equalsNoCase: (c, p) => `${c} = ${p}`,
  insertOrReplace: (table, columns) => `INSERT OR REPLACE INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `$${c}`).join(', ')})`,
  leaseClock: (p) => p,
  unindexed: (c) => `+${c}`,
  skipLocked: '',
};

const postgres: SqlDialect = {
  greatest: (a, b) => `GREATEST(${a}, ${b})`,
  least: (a, b) => `LEAST(${a}, ${b})`,
  distinct: (a, b) => `${a} IS DISTINCT FROM ${b}`,
  jsonTexts: (p) => `jsonb_array_elements_text(CAST(${p} AS text)::jsonb) AS value`,
  jsonObjects: (p) => `jsonb_array_elements(CAST(${p} AS text)::jsonb) AS value`,
  // The column has a unique index on lower(column) (sql/postgres/ddl.ts).
  equalsNoCase: (c, p) => `lower(${c}) = lower(${p})`,
  insertOrReplace: (table, columns, key) =>
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `$${c}`).join(', ')})
     ON CONFLICT (${key.join(', ')}) DO UPDATE SET ${columns
       .filter((c) => !key.includes(c))
       .map((c) => `${c} = excluded.${c}`)
       .join(', ')}`,
  leaseClock: () => `CAST(floor(extract(epoch from clock_timestamp()) * 1000) AS BIGINT)`,
  unindexed: (c) => c,
  skipLocked: ' FOR UPDATE SKIP LOCKED',
};

export function dialectOf(d: Dialect): SqlDialect {
  return d === 'postgres' ? postgres : sqlite;
}
