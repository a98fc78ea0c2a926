import { IN_ACCOUNT, type AccountScope } from './account-scope';
import type { SqlConnection } from './sql/connection';
import { dialectOf } from './sql/dialect';
import { FINAL_STATES, type AlertState } from '../call-model';
import { newId } from '../ids';
import { sqlList } from './sql-list';

/** The states a call ends in, as SQL (from the call model, never retyped). */
const FINAL = sqlList(FINAL_STATES);

export interface AlertRecord {
  id: string;
  accountId: string;
  credentialId: string | null;
  /** null: a plain request, never deduplicated. */
  key: string | null;
  source: string;
  message: string;
  state: AlertState;
  stateReason: string | null;
  createdAt: number;
  updatedAt: number;
  acknowledgedAt: number | null;
  acknowledgedBy: string | null;
  resolvedAt: number | null;
  /** A native source's labels (docs/on-call.md "Maintenance windows" matches `label:<name>=<value>`); null: none. */
  labels: Record<string, string> | null;
  /** The maintenance window that suppressed it (mw_…), and until when its calls are not placed. */
  suppressedBy: string | null;
  suppressedUntil: number | null;
  /** Why nobody could be called ("step 1: schedule backup has nobody on call"); null: it reached someone. */
  unroutable: string | null;
  /** What a text reply names it by (docs/second-path.md "Short codes"); null until its first text or e-mail. */
  shortCode: string | null;
}

/** An `alerts` row as SQLite returns it (`SELECT *`). */
export interface AlertRow {
  id: string;
  account_id: string;
  credential_id: string | null;
  alert_key: string | null;
  source: string;
  message: string;
  state: AlertState;
  state_reason: string | null;
  created_at: number;
  updated_at: number;
  acknowledged_at: number | null;
  acknowledged_by: string | null;
  resolved_at: number | null;
  labels: string | null;
  suppressed_by: string | null;
  suppressed_until: number | null;
  unroutable?: string | null;
  short_code?: string | null;
}

/** The one mapping from a row to an AlertRecord (panel-queries reads alerts too). */
export const toAlert = (r: AlertRow): AlertRecord => ({
  id: r.id,
  accountId: r.account_id,
  credentialId: r.credential_id,
  key: r.alert_key,
  source: r.source,
  message: r.message,
  state: r.state,
  stateReason: r.state_reason,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  acknowledgedAt: r.acknowledged_at,
  acknowledgedBy: r.acknowledged_by,
  resolvedAt: r.resolved_at,
  labels: r.labels ? (JSON.parse(r.labels) as Record<string, string>) : null,
  suppressedBy: r.suppressed_by ?? null,
  suppressedUntil: r.suppressed_until ?? null,
  unroutable: r.unroutable ?? null,
  shortCode: r.short_code ?? null,
});

export interface NewAlert {
  accountId: string;
  credentialId: string | null;
  key: string | null;
  source: string;
  message: string;
  /** A native source's labels; absent: none. */
  labels?: Record<string, string> | null;
}

export interface AlertChange {
  from: AlertState;
  to: AlertState;
  at: number;
  reason?: string | null;
  /** With `to: 'acknowledged'`: the number that pressed 1, or who acknowledged otherwise. */
  acknowledgedBy?: string | null;
}

/**
 * Alerts (docs/http-api.md "Alerts: dedupe and resolve"). Writes run inside the caller's
 * transaction (`store.transaction`), beside the calls and credit they go with. State edges are
 * checked by the caller (alertTransition in src/call-model); `move` only applies one if the alert
 * is still in `from`.
 */
export interface AlertsStore {
  create(alert: NewAlert, now: number): Promise<string>;
  get(id: string): Promise<AlertRecord | null>;
  /** The alert if it belongs to the account (account-scope.ts): another account's is null. */
  getInAccount(account: AccountScope, id: string): Promise<AlertRecord | null>;
  /** The open alert of this account with this key, if any (the newest). */
  findOpen(accountId: string, key: string): Promise<AlertRecord | null>;
  /** The newest alert of this account with this key, in any state (dedupe looks at it). */
  latestByKey(accountId: string, key: string): Promise<AlertRecord | null>;
  list(filter?: { accountId?: string; state?: AlertState; source?: string; limit?: number }): Promise<AlertRecord[]>;
  /** False when the alert is no longer in `change.from` (someone else moved it first). */
  move(id: string, change: AlertChange): Promise<boolean>;
  /** `move` for many alerts in one statement: the ids that were still in `change.from` and moved. */
  moveAll(ids: readonly string[], change: AlertChange): Promise<string[]>;
  /** The alerts with these ids that exist (any order). */
  getMany(ids: readonly string[]): Promise<AlertRecord[]>;
  /**
   * Of these alerts, the open ones that have calls, all of them ended (FINAL_STATES), and no
   * running escalation: the ones settleAlerts may close as unacknowledged (src/alerts/lifecycle.ts).
   */
  allCallsEnded(ids: readonly string[]): Promise<AlertRecord[]>;
  /** Records why nobody could be called (docs/on-call.md "Nothing silently calls nobody"). */
  markUnroutable(id: string, why: string): Promise<void>;
  /** The account's alerts matching every field of `filter`, one page in the order asked (Opsgenie's list). */
  search(accountId: string, filter: AlertMatch, page: AlertPage): Promise<AlertRecord[]>;
  /** How many of the account's alerts match `filter` (Opsgenie's count, and the list's last page). */
  countMatching(accountId: string, filter: AlertMatch): Promise<number>;
}

/**
 * What Opsgenie's list and count of alerts filter by (docs/integrations.md "Scripts written for
 * Opsgenie and PagerDuty"): every field given must match. `open` false: any closed state.
 */
export interface AlertMatch {
  open?: boolean;
  acknowledged?: boolean;
  key?: string;
  id?: string;
}

export interface AlertPage {
  sort: 'created_at' | 'updated_at';
  desc: boolean;
  limit: number;
  offset: number;
}

function filterSql(accountId: string, f: AlertMatch): { where: string; params: Record<string, string | number> } {
  const where = ['account_id = $account'];
  const params: Record<string, string | number> = { account: accountId };
  if (f.open !== undefined) where.push(f.open ? "state = 'open'" : "state <> 'open'");
  if (f.acknowledged !== undefined) where.push(f.acknowledged ? "state = 'acknowledged'" : "state <> 'acknowledged'");
  if (f.key !== undefined) {
    where.push('alert_key = $key');
    params.key = f.key;
  }
  if (f.id !== undefined) {
    where.push('id = $id');
    params.id = f.id;
  }
  return { where: where.join(' AND '), params };
}

/**
 * An alert by its key, newest first: every keyed request reads one or both. Both are served
 * by the index alerts_key (account_id, alert_key, created_at) in key order (migration 18;
 * alerts-by-key.test.ts holds SQLite's plan to it).
 */
export const ALERT_BY_KEY_SQL = {
  open: `SELECT * FROM alerts WHERE account_id = $account AND alert_key = $key AND state = 'open'
         ORDER BY created_at DESC LIMIT 1`,
  latest: `SELECT * FROM alerts WHERE account_id = $account AND alert_key = $key ORDER BY created_at DESC, rowid DESC LIMIT 1`,
};

/** Whether the account has any alert of the key: one seek in alerts_key, no ORDER BY. */
export const ANY_BY_KEY_SQL = 'SELECT 1 AS found FROM alerts WHERE account_id = $account AND alert_key = $key LIMIT 1';

/**
 * A new alert's row, the one text that writes it: `create` below, and a plain request's one
 * statement on PostgreSQL (queue-at-once.ts), which inserts it `SELECT`ed from its charge.
 * Parameters: $id $account $cred $key $source $message $now $labels (JSON text or null).
 */
export const NEW_ALERT_ROW = {
  columns: 'id, account_id, credential_id, alert_key, source, message, state, created_at, updated_at, labels',
  values: "$id, $account, $cred, $key, $source, $message, 'open', $now, $now, $labels",
};

export function createAlertsStore(db: SqlConnection): AlertsStore {
  const insert = db.query(`INSERT INTO alerts (${NEW_ALERT_ROW.columns}) VALUES (${NEW_ALERT_ROW.values})`);
  const byId = db.query('SELECT * FROM alerts WHERE id = $id');
  const byIdInAccount = db.query(`SELECT * FROM alerts WHERE id = $id AND ${IN_ACCOUNT}`);
  const openByKey = db.query(ALERT_BY_KEY_SQL.open);
  const latestKeyed = db.query(ALERT_BY_KEY_SQL.latest);
  // Bun's SQLite spends ~7 µs on every run of a statement with ORDER BY, whatever its plan,
  // and well under 1 µs on this seek: a key never seen before (a new Alertmanager group) is
  // answered by the seek alone (BENCHMARKS.md "A key never seen before", in "The lookup
  // cache across our own commits"). On PostgreSQL a statement more costs more than it saves.
  const anyByKey = db.dialect === 'sqlite' ? db.query(ANY_BY_KEY_SQL) : null;
  const keyKnown = async (account: string, key: string) => anyByKey === null || (await anyByKey.get({ account, key })) !== null;
  const sql = dialectOf(db.dialect);
  const moveMany = db.query(
    `UPDATE alerts SET state = $to, updated_at = $at, state_reason = COALESCE($reason, state_reason),
       acknowledged_at = CASE WHEN $to = 'acknowledged' THEN $at ELSE acknowledged_at END,
       acknowledged_by = CASE WHEN $to = 'acknowledged' THEN $by ELSE acknowledged_by END,
       resolved_at = CASE WHEN $to = 'resolved' THEN $at ELSE resolved_at END
     WHERE id IN (SELECT value FROM ${sql.jsonTexts('$ids')}) AND state = $from
     RETURNING id`,
  );
  const byIds = db.query(`SELECT * FROM alerts WHERE id IN (SELECT value FROM ${sql.jsonTexts('$ids')})`);
  const ended = db.query(
    `SELECT a.* FROM alerts a
     WHERE a.id IN (SELECT value FROM ${sql.jsonTexts('$ids')}) AND a.state = 'open'
       AND EXISTS (SELECT 1 FROM calls c WHERE c.alert_id = a.id)
       AND NOT EXISTS (SELECT 1 FROM calls c WHERE c.alert_id = a.id AND c.state NOT IN (${FINAL}))
       AND NOT EXISTS (SELECT 1 FROM escalations e WHERE e.alert_id = a.id AND e.state = 'running')`,
  );
  const moveAll = async (ids: readonly string[], c: AlertChange): Promise<string[]> => {
    if (ids.length === 0) return [];
    const rows = (await moveMany.all({ ids: JSON.stringify(ids), from: c.from, to: c.to, at: c.at, reason: c.reason ?? null, by: c.acknowledgedBy ?? null })) as { id: string }[];
    const moved = new Set(rows.map((r) => r.id));
    return ids.filter((id) => moved.has(id));
  };
  return {
    async create(a, now) {
      const id = newId('alt');
      // Sent, not waited for: the id is ours, and the COMMIT waits for it (sql/connection.ts send).
      insert.send({ id, account: a.accountId, cred: a.credentialId, key: a.key, source: a.source, message: a.message, now, labels: a.labels ? JSON.stringify(a.labels) : null });
      return id;
    },
    async get(id) {
      const row = (await byId.get({ id })) as AlertRow | null;
      return row ? toAlert(row) : null;
    },
    async getInAccount(account, id) {
      const row = (await byIdInAccount.get({ id, account })) as AlertRow | null;
      return row ? toAlert(row) : null;
    },
    async findOpen(accountId, key) {
      if (!(await keyKnown(accountId, key))) return null;
      const row = (await openByKey.get({ account: accountId, key })) as AlertRow | null;
      return row ? toAlert(row) : null;
    },
    async latestByKey(accountId, key) {
      if (!(await keyKnown(accountId, key))) return null;
      const row = (await latestKeyed.get({ account: accountId, key })) as AlertRow | null;
      return row ? toAlert(row) : null;
    },
    async list({ accountId, state, source, limit = 100 } = {}) {
      const where = [accountId ? 'account_id = $account' : null, state ? 'state = $state' : null, source ? 'source = $source' : null].filter(Boolean);
      const sql = `SELECT * FROM alerts ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY created_at DESC, id LIMIT $limit`;
      const params: Record<string, string | number> = { limit };
      if (accountId) params.account = accountId;
      if (state) params.state = state;
      if (source) params.source = source;
      return ((await db.query(sql).all(params)) as AlertRow[]).map(toAlert);
    },
    async move(id, c) {
      return (await moveAll([id], c)).length === 1;
    },
    moveAll,
    async getMany(ids) {
      return ids.length === 0 ? [] : ((await byIds.all({ ids: JSON.stringify(ids) })) as AlertRow[]).map(toAlert);
    },
    async allCallsEnded(ids) {
      return ids.length === 0 ? [] : ((await ended.all({ ids: JSON.stringify(ids) })) as AlertRow[]).map(toAlert);
    },
    async markUnroutable(id, why) {
      await db.query('UPDATE alerts SET unroutable = $why WHERE id = $id').run({ id, why });
    },
    async search(accountId, filter, page) {
      const { where, params } = filterSql(accountId, filter);
      const dir = page.desc ? 'DESC' : 'ASC';
      // Ids sort by creation time (src/ids): the tie-break keeps pages apart when times are equal.
      const text = `SELECT * FROM alerts WHERE ${where} ORDER BY ${page.sort} ${dir}, id ${dir} LIMIT $limit OFFSET $offset`;
      return ((await db.query(text).all({ ...params, limit: page.limit, offset: page.offset })) as AlertRow[]).map(toAlert);
    },
    async countMatching(accountId, filter) {
      const { where, params } = filterSql(accountId, filter);
      const row = (await db.query(`SELECT COUNT(*) AS n FROM alerts WHERE ${where}`).get(params)) as { n: number | string };
      return Number(row.n);
    },
  };
}
