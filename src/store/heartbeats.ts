import { newId } from '../ids';
import { claimParams, leasedRows, type Lease } from './lease';
import type { SqlConnection } from './sql/connection';
import { dialectOf } from './sql/dialect';

/** `paused` is a flag beside these, so a resumed heartbeat is what it was (docs/on-call.md "Heartbeats"). */
export type HeartbeatState = 'new' | 'up' | 'late';

export interface Heartbeat {
  id: string;
  accountId: string;
  name: string;
  intervalS: number;
  graceS: number;
  /** Called under this policy (with `numbers` added to its first step), or null: `numbers` only. */
  policyId: string | null;
  numbers: string[];
  /** null: the default text in panel.language (src/heartbeats/words.ts). */
  message: string | null;
  state: HeartbeatState;
  paused: boolean;
  /** Unix ms by the lease clock (dialect.ts), like `deadlineAt`. */
  lastPingAt: number | null;
  /** Late after this; null while `new`. */
  deadlineAt: number | null;
  /** The alert raised when it last went late. */
  alertId: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface NewHeartbeat {
  accountId: string;
  name: string;
  /** SHA-256 of the ping token (src/digest `digest`): the token itself is never stored. */
  tokenHash: Uint8Array;
  intervalS: number;
  graceS: number;
  policyId: string | null;
  numbers: string[];
  message: string | null;
}


interface HeartbeatRow {
  id: string;
  account_id: string;
  name: string;
  interval_s: number;
  grace_s: number;
  policy_id: string | null;
  numbers: string;
  message: string | null;
  state: HeartbeatState;
  paused: number;
  last_ping_at: number | null;
  deadline_at: number | null;
  alert_id: string | null;
  created_at: number;
  updated_at: number;
}

const num = (v: number | null) => (v === null ? null : Number(v));

const toHeartbeat = (r: HeartbeatRow): Heartbeat => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  intervalS: Number(r.interval_s),
  graceS: Number(r.grace_s),
  policyId: r.policy_id,
  numbers: JSON.parse(r.numbers) as string[],
  message: r.message,
  state: r.state,
  paused: Number(r.paused) === 1,
  lastPingAt: num(r.last_ping_at),
  deadlineAt: num(r.deadline_at),
  alertId: r.alert_id,
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

/**
 * Heartbeats (docs/on-call.md "Heartbeats"). Writes run inside the caller's transaction. Deadlines
 * and leases are set and compared by the lease clock (dialect.ts `leaseClock`: the database's
 * own on PostgreSQL, the caller's `now` on SQLite), so every appliance on one database
 * agrees on when a heartbeat is late. Reads by id are scoped to the account.
 */
export interface HeartbeatsStore {
  create(h: NewHeartbeat, now: number): Promise<Heartbeat>;
  /** By id or name, in this account only. */
  find(accountId: string, idOrName: string): Promise<Heartbeat | null>;
  list(accountId: string): Promise<Heartbeat[]>;
  delete(id: string): Promise<boolean>;
  /** False when it already was. */
  pause(id: string, now: number): Promise<boolean>;
  /** False when it was not paused. An `up` heartbeat gets a full interval + grace from now. */
  resume(id: string, now: number): Promise<boolean>;
  /**
   * A ping: the heartbeat is `up` with a new deadline (interval + grace from now). `wasLate`:
   * it had gone late, so its alert is to be resolved in this transaction. Null: no such token.
   */
  ping(tokenHash: Uint8Array, now: number): Promise<{ heartbeat: Heartbeat; wasLate: boolean } | null>;
  /**
   * `ping` for the account's heartbeat of this name (the Opsgenie Heartbeat API names it,
   * docs/integrations.md "Scripts written for Opsgenie and PagerDuty"). Null: the account has none.
   */
  pingByName(accountId: string, name: string, now: number): Promise<{ heartbeat: Heartbeat; wasLate: boolean } | null>;
  /** A plain read before any claim: whether some heartbeat is past its deadline and not leased. */
  anyDue(now: number): Promise<boolean>;
  /**
   * Leases up to `limit` heartbeats past their deadline (up, not paused, not leased to anyone
   * whose lease still runs) to `lease.owner` for `lease.ms`; FOR UPDATE SKIP LOCKED on
   * PostgreSQL, like the outbox's claim (outbox.ts), so two appliances never take the same one.
   */
  claimDue(now: number, limit: number, lease: Lease): Promise<Heartbeat[]>;
  /**
   * The one edge up -> late, guarded: only while still leased to `owner`, up, not paused and
   * past its deadline (a ping since the claim moved the deadline). Null when the guard failed.
   */
  markLate(id: string, owner: string, now: number): Promise<Heartbeat | null>;
  setAlert(id: string, alertId: string | null): Promise<void>;
  releaseLeases(owner: string): Promise<number>;
  /** This node checked deadlines now. */
  seen(node: string, now: number): Promise<void>;
  /** Whether another node checked deadlines within the last `withinMs`. */
  otherNodeAlive(node: string, now: number, withinMs: number): Promise<boolean>;
  /** After the service was down: every `up` heartbeat's deadline is at least interval + grace from now. */
  giveFullInterval(now: number): Promise<number>;
}

export function createHeartbeatsStore(db: SqlConnection): HeartbeatsStore {
  const sql = dialectOf(db.dialect);
  const ln = sql.leaseClock('$now');
  const window = `(interval_s + grace_s) * 1000`;
  const pingSet = `state = 'up', last_ping_at = ${ln}, deadline_at = ${ln} + ${window}, updated_at = $now`;
  const pingFast = db.query(`UPDATE heartbeats SET ${pingSet} WHERE token_hash = $hash AND state <> 'late' RETURNING *`);
  const pingLate = db.query(`UPDATE heartbeats SET ${pingSet} WHERE token_hash = $hash AND state = 'late' RETURNING *`);
  const byName = 'account_id = $account AND name = $name';
  const pingNamedFast = db.query(`UPDATE heartbeats SET ${pingSet} WHERE ${byName} AND state <> 'late' RETURNING *`);
  const pingNamedLate = db.query(`UPDATE heartbeats SET ${pingSet} WHERE ${byName} AND state = 'late' RETURNING *`);
  const leases = leasedRows(db, { table: 'heartbeats', key: 'id' });
  const dueWhere = `state = 'up' AND paused = 0 AND deadline_at <= ${ln}`;
  const anyDueQuery = db.query(`SELECT 1 AS due FROM heartbeats WHERE ${dueWhere} AND ${leases.sql.free()} LIMIT 1`);
  const claimQuery = db.query(leases.sql.claim({ due: dueWhere, order: 'deadline_at' }));
  const markLateQuery = db.query(leases.sql.finish({ set: `state = 'late', updated_at = $now`, where: dueWhere, returning: '*' }));
  return {
    async create(h, now) {
      const id = newId('hb', now);
      const row = (await db
        .query(
          `INSERT INTO heartbeats (id, account_id, name, token_hash, interval_s, grace_s, policy_id, numbers, message, state, created_at, updated_at)
           VALUES ($id, $account, $name, $hash, $interval, $grace, $policy, $numbers, $message, 'new', $now, $now) RETURNING *`,
        )
        .get({
          id,
          account: h.accountId,
          name: h.name,
          hash: h.tokenHash,
          interval: h.intervalS,
          grace: h.graceS,
          policy: h.policyId,
          numbers: JSON.stringify(h.numbers),
          message: h.message,
          now,
        })) as HeartbeatRow;
      return toHeartbeat(row);
    },
    async find(accountId, idOrName) {
      const row = (await db
        .query('SELECT * FROM heartbeats WHERE account_id = $a AND (id = $v OR name = $v) LIMIT 1')
        .get({ a: accountId, v: idOrName })) as HeartbeatRow | null;
      return row ? toHeartbeat(row) : null;
    },
    async list(accountId) {
      return ((await db.query('SELECT * FROM heartbeats WHERE account_id = $a ORDER BY name').all({ a: accountId })) as HeartbeatRow[]).map(toHeartbeat);
    },
    async delete(id) {
      return (await db.query('DELETE FROM heartbeats WHERE id = $id').run({ id })).changes === 1;
    },
    async pause(id, now) {
      return (await db.query('UPDATE heartbeats SET paused = 1, updated_at = $now WHERE id = $id AND paused = 0').run({ id, now })).changes === 1;
    },
    async resume(id, now) {
      const r = await db
        .query(
          `UPDATE heartbeats SET paused = 0, updated_at = $now,
             deadline_at = CASE WHEN state = 'up' THEN ${ln} + ${window} ELSE deadline_at END
           WHERE id = $id AND paused = 1`,
        )
        .run({ id, now });
      return r.changes === 1;
    },
    async ping(hash, now) {
      // Most pings find the heartbeat up: one statement. A late one is told apart by a second
      // statement, not by reading first: on PostgreSQL an UPDATE that waited for the checker's
      // row lock re-checks its WHERE against the committed row (up -> late), so a ping racing
      // the deadline always either prevents the alert or resolves it.
      const fast = (await pingFast.get({ hash, now })) as HeartbeatRow | null;
      if (fast) return { heartbeat: toHeartbeat(fast), wasLate: false };
      const late = (await pingLate.get({ hash, now })) as HeartbeatRow | null;
      return late ? { heartbeat: toHeartbeat(late), wasLate: true } : null;
    },
    async pingByName(account, name, now) {
      // The same two statements as `ping`, for the same reason.
      const fast = (await pingNamedFast.get({ account, name, now })) as HeartbeatRow | null;
      if (fast) return { heartbeat: toHeartbeat(fast), wasLate: false };
      const late = (await pingNamedLate.get({ account, name, now })) as HeartbeatRow | null;
      return late ? { heartbeat: toHeartbeat(late), wasLate: true } : null;
    },
    async anyDue(now) {
      return (await anyDueQuery.get({ now })) !== null;
    },
    async claimDue(now, limit, lease) {
      return ((await claimQuery.all(claimParams(now, limit, lease))) as HeartbeatRow[]).map(toHeartbeat);
    },
    async markLate(id, owner, now) {
      const row = (await markLateQuery.get({ key: id, owner, now })) as HeartbeatRow | null;
      return row ? toHeartbeat(row) : null;
    },
    async setAlert(id, alertId) {
      await db.query('UPDATE heartbeats SET alert_id = $alertId WHERE id = $id').run({ id, alertId });
    },
    async releaseLeases(owner) {
      return leases.release(owner);
    },
    async seen(node, now) {
      await db
        .query(`INSERT INTO heartbeat_nodes (node, seen_at) VALUES ($node, ${ln}) ON CONFLICT (node) DO UPDATE SET seen_at = excluded.seen_at`)
        .run({ node, now });
    },
    async otherNodeAlive(node, now, withinMs) {
      const row = await db
        .query(`SELECT 1 AS alive FROM heartbeat_nodes WHERE node <> $node AND seen_at >= ${ln} - $within LIMIT 1`)
        .get({ node, now, within: withinMs });
      return row !== null;
    },
    async giveFullInterval(now) {
      const r = await db
        .query(`UPDATE heartbeats SET deadline_at = ${sql.greatest('deadline_at', `${ln} + ${window}`)}, updated_at = $now WHERE state = 'up'`)
        .run({ now });
      return r.changes;
    },
  };
}
