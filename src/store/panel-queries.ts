import type { SqlConnection } from './sql/connection';
import { dialectOf } from './sql/dialect';
import type { AlertState, CallState } from '../call-model';
import { toAlert, type AlertRecord, type AlertRow } from './alerts';
import { toCall, type CallRecord, type CallRow } from './call-record';
import { HISTORY_COLUMNS } from './history';
import { IN_ACCOUNT, type AccountScope } from './account-scope';
import type { HistoryEntry } from './history';

/**
 * Read-only searches for the web panel: filters and paging over calls and API history,
 * and the instants of charged calls for the per-day usage chart. Nothing here writes.
 */
export interface CallFilter {
  accountId: string;
  state?: CallState;
  /** Matches any part of the stored 10-digit number. */
  phone?: string;
  /** Unix ms, inclusive / exclusive. */
  from?: number;
  to?: number;
  limit: number;
  offset: number;
}

export interface HistoryFilter {
  accountId: string;
  endpoint?: string;
  /** 2, 4 or 5: the status class. */
  statusClass?: number;
  from?: number;
  to?: number;
  limit: number;
  offset: number;
}

export interface AlertFilter {
  accountId: string;
  state?: AlertState;
  /** Only alerts from this source (`api`, `alertmanager`, `heartbeat` …). */
  source?: string;
  limit: number;
  offset: number;
}

/** How many of an alert's calls are in each state, e.g. `{ queued: 1, cancelled: 2 }`. */
export type CallStateCounts = Partial<Record<CallState, number>>;

export interface Page<T> {
  rows: T[];
  total: number;
}

export interface PanelQueries {
  calls(filter: CallFilter): Promise<Page<CallRecord>>;
  history(filter: HistoryFilter): Promise<Page<HistoryEntry & { id: number }>>;
  /** The account's alerts, newest first, each with the states of its calls. */
  alerts(filter: AlertFilter): Promise<Page<AlertRecord & { callStates: CallStateCounts }>>;
  /** The sources the account's alerts came from, by name (the alerts page's filter). */
  alertSources(accountId: string): Promise<string[]>;
  /** Alerts nobody acknowledged or resolved (open, unacknowledged), newest first; scope null: every account (the overview). */
  openAlerts(scope: AccountScope, limit: number): Promise<AlertRecord[]>;
  /** created_at of the calls that cost credit (`charged`: an owner's test call too) since `since`. */
  chargedCallTimes(accountId: string, since: number): Promise<number[]>;
  /** Whether any call of this account, of any source, has gone (or is queued) to `phoneNumber`. */
  hasCalled(accountId: string, phoneNumber: string): Promise<boolean>;
  /** Test calls of this account queued since `since`: the panel's test-call rate. */
  testCallsSince(accountId: string, since: number): Promise<number>;
  /** The most recent SIP final response any call got, as a sign of the trunk's health. */
  lastSipOutcome(): Promise<{ at: number; sipCode: number; reason: string | null } | null>;
}

type Params = Record<string, string | number>;

function where(clauses: [boolean, string][]): string {
  const used = clauses.filter(([on]) => on).map(([, sql]) => sql);
  return used.length ? `WHERE ${used.join(' AND ')}` : '';
}

export function createPanelQueries(db: SqlConnection): PanelQueries {
  return {
    async calls(f) {
      const params: Params = { a: f.accountId };
      if (f.state) params.state = f.state;
      if (f.phone) params.phone = `%${f.phone.replace(/[%_\\]/g, '')}%`;
      if (f.from !== undefined) params.from = f.from;
      if (f.to !== undefined) params.to = f.to;
      const w = where([
        [true, 'account_id = $a'],
        [Boolean(f.state), 'state = $state'],
        [Boolean(f.phone), 'phone_number LIKE $phone'],
        [f.from !== undefined, 'created_at >= $from'],
        [f.to !== undefined, 'created_at < $to'],
      ]);
      const total = ((await db.query(`SELECT count(*) AS n FROM calls ${w}`).get(params)) as { n: number }).n;
      const rows = (await db
        .query(`SELECT * FROM calls ${w} ORDER BY created_at DESC, id LIMIT $limit OFFSET $offset`)
        .all({ ...params, limit: f.limit, offset: f.offset })) as CallRow[];
      return { rows: rows.map(toCall), total };
    },
    async history(f) {
      const params: Params = { a: f.accountId };
      if (f.endpoint) params.endpoint = f.endpoint;
      if (f.statusClass) {
        params.lo = f.statusClass * 100;
        params.hi = f.statusClass * 100 + 100;
      }
      if (f.from !== undefined) params.from = f.from;
      if (f.to !== undefined) params.to = f.to;
      const w = where([
        [true, 'account_id = $a'],
        [Boolean(f.endpoint), 'endpoint = $endpoint'],
        [Boolean(f.statusClass), 'status >= $lo AND status < $hi'],
        [f.from !== undefined, 'at >= $from'],
        [f.to !== undefined, 'at < $to'],
      ]);
      const total = ((await db.query(`SELECT count(*) AS n FROM api_history ${w}`).get(params)) as { n: number }).n;
      const rows = (await db
        .query(`SELECT ${HISTORY_COLUMNS} FROM api_history ${w} ORDER BY id DESC LIMIT $limit OFFSET $offset`)
        .all({ ...params, limit: f.limit, offset: f.offset })) as (HistoryEntry & { id: number })[];
      return { rows, total };
    },
    async alertSources(accountId) {
      return ((await db.query('SELECT DISTINCT source FROM alerts WHERE account_id = $a ORDER BY source').all({ a: accountId })) as { source: string }[]).map((r) => r.source);
    },
    async alerts(f) {
      const params: Params = { a: f.accountId };
      if (f.state) params.state = f.state;
      if (f.source) params.source = f.source;
      const w = where([
        [true, 'account_id = $a'],
        [Boolean(f.state), 'state = $state'],
        [Boolean(f.source), 'source = $source'],
      ]);
      const total = ((await db.query(`SELECT count(*) AS n FROM alerts ${w}`).get(params)) as { n: number }).n;
      const rows = (
        (await db
          .query(`SELECT * FROM alerts ${w} ORDER BY created_at DESC, id DESC LIMIT $limit OFFSET $offset`)
          .all({ ...params, limit: f.limit, offset: f.offset })) as AlertRow[]
      ).map(toAlert);
      // One grouped query for the whole page rather than one per alert.
      const counts = new Map<string, CallStateCounts>(rows.map((r) => [r.id, {}]));
      if (rows.length) {
        const grouped = (await db
          .query(
            `SELECT alert_id AS alertId, state, count(*) AS n FROM calls
             WHERE alert_id IN (SELECT value FROM ${dialectOf(db.dialect).jsonTexts('$ids')}) GROUP BY alert_id, state`,
          )
          .all({ ids: JSON.stringify(rows.map((r) => r.id)) })) as { alertId: string; state: CallState; n: number }[];
        for (const g of grouped) counts.get(g.alertId)![g.state] = g.n;
      }
      return { rows: rows.map((r) => ({ ...r, callStates: counts.get(r.id)! })), total };
    },
    async openAlerts(scope, limit) {
      return ((await db
        .query(`SELECT * FROM alerts WHERE state IN ('open', 'unacknowledged') AND ${IN_ACCOUNT} ORDER BY created_at DESC, id DESC LIMIT $limit`)
        .all({ account: scope, limit })) as AlertRow[]).map(toAlert);
    },
    async chargedCallTimes(accountId, since) {
      return (
        (await db
          .query("SELECT created_at AS t FROM calls WHERE account_id = $a AND charged = 1 AND created_at >= $since")
          .all({ a: accountId, since })) as { t: number }[]
      ).map((r) => r.t);
    },
    async hasCalled(accountId, phoneNumber) {
      // phone_number leads an index (calls_in_progress): few rows per number to look at.
      return (await db.query('SELECT 1 FROM calls WHERE phone_number = $p AND account_id = $a LIMIT 1').get({ a: accountId, p: phoneNumber })) !== null;
    },
    async testCallsSince(accountId, since) {
      return (
        (await db
          .query("SELECT count(*) AS n FROM calls WHERE account_id = $a AND created_at >= $since AND source = 'test'")
          .get({ a: accountId, since })) as { n: number }
      ).n;
    },
    async lastSipOutcome() {
      return (await db
        .query(
          `SELECT updated_at AS at, last_sip_code AS sipCode, last_reason AS reason FROM calls
           WHERE last_sip_code IS NOT NULL ORDER BY updated_at DESC LIMIT 1`,
        )
        .get()) as { at: number; sipCode: number; reason: string | null } | null;
    },
  };
}
