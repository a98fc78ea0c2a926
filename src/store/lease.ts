import type { SqlConnection } from './sql/connection';
import { dialectOf } from './sql/dialect';
import { randomToken } from '../ids';

/**
 * One holder's lease on rows of a table: work one appliance must do alone (a heartbeat's
 * miss, a window's start, a schedule's hand-off, a self-test, a callback) is a row claimed
 * under a lease, never a leader (docs/high-availability.md "High availability"). A holder that hangs or dies
 * keeps nothing: its lease runs out and another appliance claims the row.
 */
export interface Lease {
  /** Who holds it: `lease_` and a random token, one per service and process (newLease). */
  owner: string;
  /** How long a claim holds, measured by the database's clock. */
  ms: number;
}

/** A fresh holder for one service of this process. */
export function newLease(ms: number): Lease {
  return { owner: `lease_${randomToken(16)}`, ms };
}

/** A leased table: its key and its two lease columns (schedules name them watch_lease_*). */
export interface LeasedTable {
  table: string;
  key: string;
  until?: string;
  owner?: string;
}

/**
 * The lease rules as SQL, the one place they are written (test/layout/source-layout.test.ts
 * keeps claim SQL out of every other file). Times are the database's clock (dialect.ts
 * `leaseClock`): PostgreSQL's clock_timestamp(), the same for every appliance however wrong
 * an appliance's own clock is; on SQLite, one host's database, the caller's `$now`. Both
 * "due" (pass `now` into the due condition) and a lease's end are measured by it.
 *
 * Parameters: `$now` (the caller's clock; SQLite's lease clock), `$owner`, `$leaseMs`,
 * `$limit` (claim), `$key` (one row).
 */
export interface LeaseSql {
  /** The database's clock, as an SQL expression in ms since the epoch. */
  readonly now: string;
  /**
   * Leases up to `$limit` rows of `due` (a condition on the table, `alias` if given) that
   * nobody holds to `$owner` for `$leaseMs`, in `order`; FOR UPDATE SKIP LOCKED on
   * PostgreSQL, so two appliances claiming at once take disjoint rows. RETURNING `returning`.
   */
  claim(o: { due: string; order: string; alias?: string; returning?: string }): string;
  /** Rows nobody holds (never leased, let go, or run out): for a plain read before a claim. */
  free(alias?: string): string;
  /**
   * The row is still `$owner`'s: nobody took it over. A holder that lost its lease (it ran out
   * and another claimed the row) can finish, renew or release nothing.
   */
  held(alias?: string): string;
  /** As held, and the lease has not run out: checked just before acting outside the database (a request sent). */
  running(alias?: string): string;
  /**
   * Finishes the row `$key` only while `$owner` holds it: sets `set` (the outcome) and ends
   * the lease in one statement; `where` adds the table's own guard (state, deadline);
   * `running`: only while the lease has not run out either.
   */
  finish(o: { set: string; where?: string; returning?: string; running?: boolean }): string;
  /** The SET part that ends whoever's lease (a result recorded without a holder: tests, the panel). */
  readonly clear: string;
  /** Extends `$owner`'s lease of `$key` to `$leaseMs` from now. */
  renew(): string;
  /** Lets go of every row `$owner` holds (`where`: only some): anyone may claim them at once. */
  release(where?: string): string;
}

export function leaseSql(dialect: SqlConnection['dialect'], t: LeasedTable): LeaseSql {
  const sql = dialectOf(dialect);
  const now = sql.leaseClock('$now');
  const until = t.until ?? 'lease_until';
  const owner = t.owner ?? 'lease_owner';
  const col = (alias: string | undefined, c: string) => (alias ? `${alias}.${c}` : c);
  const free = (a?: string) => `(${col(a, until)} IS NULL OR ${col(a, until)} < ${now})`;
  const held = (a?: string) => `${col(a, owner)} = $owner`;
  const ended = `${until} = NULL, ${owner} = NULL`;
  const running = (a?: string) => `${held(a)} AND ${col(a, until)} >= ${now}`;
  return {
    now,
    free,
    held,
    running,
    clear: ended,
    claim: ({ due, order, alias, returning = '*' }) =>
      `UPDATE ${t.table} SET ${until} = ${now} + $leaseMs, ${owner} = $owner
       WHERE ${t.key} IN (SELECT ${col(alias, t.key)} FROM ${t.table}${alias ? ` ${alias}` : ''}
                          WHERE (${due}) AND ${free(alias)}
                          ORDER BY ${order} LIMIT $limit${sql.skipLocked})
       RETURNING ${returning}`,
    finish: ({ set, where, returning, running: live }) =>
      `UPDATE ${t.table} SET ${set}, ${ended} WHERE ${t.key} = $key AND ${live ? running() : held()}${where ? ` AND (${where})` : ''}${returning ? ` RETURNING ${returning}` : ''}`,
    renew: () => `UPDATE ${t.table} SET ${until} = ${now} + $leaseMs WHERE ${t.key} = $key AND ${held()}`,
    release: (where) => `UPDATE ${t.table} SET ${ended} WHERE ${held()}${where ? ` AND (${where})` : ''}`,
  };
}

/** Parameters of a claim: the caller's clock, how many, and the lease. */
export const claimParams = (now: number, limit: number, lease: Lease) => ({ now, limit, leaseMs: lease.ms, owner: lease.owner });

/** The statements every leased table runs alike: renew and release (claims and finishes carry the table's own conditions). */
export function leasedRows(db: SqlConnection, t: LeasedTable) {
  const q = leaseSql(db.dialect, t);
  const renew = db.query(q.renew());
  return {
    sql: q,
    /** True while `lease.owner` still held `key`, now for `lease.ms` more. */
    async renew(key: string, lease: Lease, now: number): Promise<boolean> {
      return (await renew.run({ key, owner: lease.owner, leaseMs: lease.ms, now })).changes === 1;
    },
    /** Lets go of every row `owner` holds (`where`: only those; its parameters in `params`). */
    async release(owner: string, where?: string, params: Record<string, unknown> = {}): Promise<number> {
      return (await db.query(q.release(where)).run({ ...params, owner })).changes;
    },
  };
}
