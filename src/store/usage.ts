import { dialectOf } from './sql/dialect';
import type { Dialect, SqlConnection } from './sql/connection';
import { createKeyLock } from './key-lock';

/**
 * Rows each account's usage of a period is kept in. Charges far from the credit limit take
 * any shard no other transaction holds and lock only that row, so requests of one account do
 * not wait for each other's COMMIT (on PostgreSQL each request is a transaction of its own,
 * and a row lock is held until COMMIT: one row for all let one request through per fsync,
 * ~2,300/s measured). More shards than two appliances' pools hold transactions at once.
 * Changing it needs a migration (migration-steps.ts 11 made the rows).
 */
export const USAGE_SHARDS = 32;

/** Calls charged per account and credit period (`YYYY-MM`). */
export interface UsageStore {
  usedIn(accountId: string, period: string): Promise<number>;
  /**
   * Adds `calls` to the period's usage whatever the credit (tests and corrections); the
   * period's later charges then all check the total (the exact path of tryCharge).
   */
  charge(accountId: string, period: string, calls: number): Promise<void>;
  /**
   * Adds `calls` only if the period's usage stays within `credit`; true when charged. Of
   * requests racing for the last credit, exactly one wins, on one appliance or several.
   * Inside the transaction that queues the calls.
   *
   * Fast path: a shard no other transaction holds takes it while that shard stays within its
   * share (credit / USAGE_SHARDS) and the period is not exact: the shares add up to no more
   * than the credit. It never waits for a row (SKIP LOCKED), so it never holds one while
   * waiting for the exact path. Otherwise the exact path locks every shard of the period, in order, checks
   * the total and charges; a shard beyond its share makes the period exact (every later
   * charge then takes the exact path, which sees every committed charge).
   */
  tryCharge(accountId: string, period: string, calls: number, credit: number): Promise<boolean>;
  /** Gives `calls` back to the period they were charged in (a cancelled call never dialled). */
  refund(accountId: string, period: string, calls: number): Promise<void>;
}

/** A charge's share of the credit on one shard: the fast path stays within it (0 for a small credit: every charge is exact). */
export const shareOf = (credit: number): number => Math.floor(credit / USAGE_SHARDS);

/**
 * The fast path's charge: one free row (`$a`, `$p`), only while within its share (`$share`)
 * and not exact; RETURNING the shard when it charged `$n`. Missing rows (the period's first
 * charge) change nothing and take the exact path, which makes the rows. Also the first step
 * of a plain request's one-statement unit on PostgreSQL (queue-at-once.ts).
 */
export function fastChargeSql(dialect: Dialect): string {
  return `UPDATE usage_shards SET used = used + $n
     WHERE account_id = $a AND period = $p
       AND shard = (SELECT shard FROM usage_shards
                    WHERE account_id = $a AND period = $p AND exact = 0 AND used + $n <= $share
                    ORDER BY random() LIMIT 1${dialectOf(dialect).skipLocked})
     RETURNING shard`;
}

interface ShardRow {
  shard: number;
  used: number;
  exact: number;
}

export function createUsageStore(db: SqlConnection): UsageStore {
  const sql = dialectOf(db.dialect);
  const forUpdate = db.dialect === 'postgres' ? ' FOR UPDATE' : '';
  const used = db.query('SELECT CAST(COALESCE(SUM(used), 0) AS BIGINT) AS used FROM usage_shards WHERE account_id = $a AND period = $p');
  const fast = db.query(fastChargeSql(db.dialect));
  // WHERE TRUE: an INSERT … SELECT before ON CONFLICT needs a WHERE clause, or SQLite may
  // read ON as a join's (sqlite.org/lang_upsert.html).
  const makeRows = db.query(
    `INSERT INTO usage_shards (account_id, period, shard, used, exact)
     SELECT $a, $p, CAST(value AS INTEGER), 0, 0 FROM ${sql.jsonTexts('$shards')} WHERE TRUE
     ON CONFLICT (account_id, period, shard) DO NOTHING`,
  );
  const lockAll = db.query(`SELECT shard, used, exact FROM usage_shards WHERE account_id = $a AND period = $p ORDER BY shard${forUpdate}`);
  const add = db.query('UPDATE usage_shards SET used = used + $n WHERE account_id = $a AND period = $p AND shard = $s');
  const makeExact = db.query('UPDATE usage_shards SET exact = 1 WHERE account_id = $a AND period = $p');
  const take = db.query('UPDATE usage_shards SET used = used - $n WHERE account_id = $a AND period = $p AND shard = $s');
  const allShards = JSON.stringify(Array.from({ length: USAGE_SHARDS }, (_, i) => i));

  const keyLock = createKeyLock(db);
  const peek = db.query('SELECT shard, used, exact FROM usage_shards WHERE account_id = $a AND period = $p');
  const onShard = db.query(
    `UPDATE usage_shards SET used = used + $n
     WHERE account_id = $a AND period = $p AND shard = $s AND exact = 0 AND used + $n <= $share`,
  );

  /**
   * The fast path, true when it charged. The exact path is for a period that is exact or
   * whose shares ran out, never merely because every shard was taken at that moment: charges
   * sent there would lock every shard and send the next ones there too (a convoy, measured:
   * two appliances all waiting in line). So: a free shard; else the period's first charge
   * makes the rows and tries again; else, while some shard has room, wait for one of them.
   */
  const fastPath = async (a: string, p: string, n: number, share: number): Promise<boolean> => {
    // SQLite has one writer: no shard is ever held by another transaction, so a shard drawn
    // here does what the subquery's draw does, through the primary key alone. The subquery
    // reads and sorts all 32 rows: ~25 µs of a ~100 µs request in a profile (BENCHMARKS.md).
    if (db.dialect === 'sqlite' && (await onShard.run({ a, p, s: Math.floor(Math.random() * USAGE_SHARDS), n, share })).changes === 1) return true;
    if ((await fast.get({ a, p, n, share })) !== null) return true;
    let rows = (await peek.all({ a, p })) as ShardRow[];
    if (rows.length < USAGE_SHARDS) {
      await makeRows.run({ a, p, shards: allShards });
      if ((await fast.get({ a, p, n, share })) !== null) return true;
      rows = (await peek.all({ a, p })) as ShardRow[];
    }
    const roomy = rows.filter((r) => r.exact === 0 && r.used + n <= share);
    if (roomy.length === 0 || rows.some((r) => r.exact === 1)) return false;
    // Waits for that row. It may then find no room (or the period exact): PostgreSQL keeps a
    // row it waited for locked even when the UPDATE then skips it, and holding it while the
    // exact path waits for its turn could deadlock with a charge holding that turn. A savepoint
    // rolled back lets it go (SQLite has one writer: nothing to let go).
    const s = roomy[Math.floor(Math.random() * roomy.length)]!.shard;
    if (db.dialect !== 'postgres') return (await onShard.run({ a, p, s, n, share })).changes === 1;
    await db.exec('SAVEPOINT usage_wait');
    const charged = (await onShard.run({ a, p, s, n, share })).changes === 1;
    if (!charged) await db.exec('ROLLBACK TO SAVEPOINT usage_wait');
    await db.exec('RELEASE SAVEPOINT usage_wait');
    return charged;
  };

  /**
   * Every shard of the period, made if need be and locked until COMMIT. Charges that lock
   * every shard take turns first (a transaction lock on the period): two of them locking
   * the rows one by one, among the one-row charges of the fast path, were seen to deadlock
   * (PostgreSQL queues the waiters of a row). After the transaction's other key locks
   * (intake's serializeOn), always in that order.
   */
  const locked = async (a: string, p: string): Promise<ShardRow[]> => {
    await keyLock(`usage ${a} ${p}`);
    const rows = (await lockAll.all({ a, p })) as ShardRow[];
    if (rows.length === USAGE_SHARDS) return rows;
    await makeRows.run({ a, p, shards: allShards });
    return (await lockAll.all({ a, p })) as ShardRow[];
  };

  return {
    async usedIn(accountId, period) {
      return ((await used.get({ a: accountId, p: period })) as { used: number }).used;
    },
    async charge(accountId, period, calls) {
      await locked(accountId, period);
      await add.run({ a: accountId, p: period, s: 0, n: calls });
      await makeExact.run({ a: accountId, p: period });
    },
    async refund(accountId, period, calls) {
      // From the fullest shards first; never below 0 (a refund of what was never charged).
      let left = calls;
      const rows = (await locked(accountId, period)).sort((x, y) => y.used - x.used);
      for (const r of rows) {
        if (left <= 0) break;
        const n = Math.min(left, r.used);
        if (n > 0) await take.run({ a: accountId, p: period, s: r.shard, n });
        left -= n;
      }
    },
    async tryCharge(accountId, period, calls, credit) {
      const a = accountId;
      const p = period;
      const share = shareOf(credit);
      // (A share of 0, a small credit: every charge checks the total, as it must.)
      if (calls <= share && (await fastPath(a, p, calls, share))) return true;
      const rows = await locked(a, p);
      const total = rows.reduce((sum, r) => sum + r.used, 0);
      if (total + calls > credit) return false;
      const mine = rows[Math.floor(Math.random() * rows.length)]!;
      await add.run({ a, p, s: mine.shard, n: calls });
      if (mine.used + calls > share && rows.every((r) => r.exact === 0)) await makeExact.run({ a, p });
      return true;
    },
  };
}
