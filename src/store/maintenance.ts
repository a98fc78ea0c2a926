import { IN_ACCOUNT, type AccountScope } from './account-scope';
import { claimParams, leasedRows, type Lease } from './lease';
import { newId } from '../ids';
import type { SqlConnection } from './sql/connection';

/** A maintenance window (docs/on-call.md "Maintenance windows"): times in unix ms, matches as their text. */
export interface MaintenanceWindow {
  id: string;
  accountId: string;
  startsAt: number;
  endsAt: number;
  reason: string;
  /** `key=…`, `source=…`, `label:…=…` (src/maintenance/match.ts); empty: every alert of the account. */
  matches: string[];
  createdAt: number;
  /** When its start cancelled the matching calls; null: not yet. */
  startedAt: number | null;
}

export interface NewMaintenanceWindow {
  accountId: string;
  startsAt: number;
  endsAt: number;
  reason: string;
  matches: string[];
}

interface WindowRow {
  id: string;
  account_id: string;
  starts_at: number;
  ends_at: number;
  reason: string;
  matches: string;
  created_at: number;
  started_at: number | null;
}

const toWindow = (r: WindowRow): MaintenanceWindow => ({
  id: r.id,
  accountId: r.account_id,
  startsAt: Number(r.starts_at),
  endsAt: Number(r.ends_at),
  reason: r.reason,
  matches: JSON.parse(r.matches) as string[],
  createdAt: Number(r.created_at),
  startedAt: r.started_at === null ? null : Number(r.started_at),
});

/**
 * Maintenance windows and the marks they leave on alerts. Writes run inside the caller's
 * transaction. A window's start (cancelling what it covers) is a per-row job: `claimStarts`
 * leases due starts to one appliance by the lease clock (dialect.ts `leaseClock`, the
 * database's on PostgreSQL), and `markStarted` takes it only while that lease holds.
 */
export interface MaintenanceStore {
  create(w: NewMaintenanceWindow, now: number): Promise<MaintenanceWindow>;
  /** The window if it belongs to the account (account-scope.ts): another account's is null. */
  getInAccount(account: AccountScope, id: string): Promise<MaintenanceWindow | null>;
  /** The account's windows, by start, latest first; `endedAfter`: only those ending after it. */
  list(accountId: string, options?: { endedAfter?: number; limit?: number }): Promise<MaintenanceWindow[]>;
  /** The account's windows not ended at `now` (under way or to come), earliest start first: what suppress.ts looks through. */
  notEndedAt(accountId: string, now: number): Promise<MaintenanceWindow[]>;
  delete(id: string): Promise<boolean>;
  /** Whether any window's start has come and was not carried out yet: a plain read before a claim. */
  anyStartDue(now: number): Promise<boolean>;
  /** Leases windows whose start has come and was not carried out yet (nor leased to anyone else). */
  claimStarts(now: number, limit: number, lease: Lease): Promise<MaintenanceWindow[]>;
  /**
   * Records the start as done by `owner`; false when its lease was lost or someone else did
   * it. `owner` null: the transaction that creates an already started window does it at once.
   */
  markStarted(id: string, owner: string | null, now: number): Promise<boolean>;
  /** Marks the alert suppressed by the window until `until`. */
  suppressAlert(alertId: string, windowId: string, until: number): Promise<void>;
  /** A deleted window suppresses no more: its alerts' suppression ends at `at`. */
  endSuppression(windowId: string, at: number): Promise<void>;
  /** Stops the alert's escalation: a repeat after the window starts it afresh (enqueue.ts begins one when none exists). */
  dropEscalation(alertId: string): Promise<void>;
}

export function createMaintenanceStore(db: SqlConnection): MaintenanceStore {
  const leases = leasedRows(db, { table: 'maintenance_windows', key: 'id' });
  const startDue = `started_at IS NULL AND starts_at <= ${leases.sql.now}`;
  const insert = db.query(
    `INSERT INTO maintenance_windows (id, account_id, starts_at, ends_at, reason, matches, created_at)
     VALUES ($id, $account, $starts, $ends, $reason, $matches, $now)`,
  );
  const byIdInAccount = db.query(`SELECT * FROM maintenance_windows WHERE id = $id AND ${IN_ACCOUNT}`);
  const listQuery = db.query(
    `SELECT * FROM maintenance_windows WHERE account_id = $account AND ends_at > $after ORDER BY starts_at DESC, id LIMIT $limit`,
  );
  const notEndedQuery = db.query(`SELECT * FROM maintenance_windows WHERE account_id = $account AND ends_at > $now ORDER BY starts_at, id`);
  const claimQuery = db.query(leases.sql.claim({ due: startDue, order: 'starts_at' }));
  // Only while the lease runs: a starter that hung past it leaves the start to whoever claims it next.
  const startedQuery = db.query(leases.sql.finish({ set: 'started_at = $now', where: 'started_at IS NULL', running: true }));
  const dueQuery = db.query(`SELECT 1 AS due FROM maintenance_windows WHERE ${startDue} LIMIT 1`);
  const startedAtCreation = db.query('UPDATE maintenance_windows SET started_at = $now WHERE id = $id AND started_at IS NULL');
  return {
    async create(w, now) {
      const id = newId('mw', now);
      await insert.run({ id, account: w.accountId, starts: w.startsAt, ends: w.endsAt, reason: w.reason, matches: JSON.stringify(w.matches), now });
      return { id, ...w, createdAt: now, startedAt: null };
    },
    async getInAccount(account, id) {
      const row = (await byIdInAccount.get({ id, account })) as WindowRow | null;
      return row ? toWindow(row) : null;
    },
    async list(accountId, { endedAfter = -1, limit = 200 } = {}) {
      return ((await listQuery.all({ account: accountId, after: endedAfter, limit })) as WindowRow[]).map(toWindow);
    },
    async notEndedAt(accountId, now) {
      return ((await notEndedQuery.all({ account: accountId, now })) as WindowRow[]).map(toWindow);
    },
    async delete(id) {
      return (await db.query('DELETE FROM maintenance_windows WHERE id = $id').run({ id })).changes === 1;
    },
    async anyStartDue(now) {
      return (await dueQuery.get({ now })) !== null;
    },
    async claimStarts(now, limit, lease) {
      return ((await claimQuery.all(claimParams(now, limit, lease))) as WindowRow[]).map(toWindow);
    },
    async markStarted(id, owner, now) {
      return (await (owner === null ? startedAtCreation.run({ id, now }) : startedQuery.run({ key: id, owner, now }))).changes === 1;
    },
    async suppressAlert(alertId, windowId, until) {
      await db.query('UPDATE alerts SET suppressed_by = $window, suppressed_until = $until WHERE id = $id').run({ id: alertId, window: windowId, until });
    },
    async endSuppression(windowId, at) {
      await db.query('UPDATE alerts SET suppressed_until = $at WHERE suppressed_by = $window AND suppressed_until > $at').run({ window: windowId, at });
    },
    async dropEscalation(alertId) {
      await db.query('DELETE FROM escalations WHERE alert_id = $id').run({ id: alertId });
    },
  };
}
