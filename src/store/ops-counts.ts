import { FAILED_STATES } from '../call-model';
import { IN_ACCOUNT } from './account-scope';
import type { SqlConnection } from './sql/connection';
import { sqlList } from './sql-list';

/** Rows per state, e.g. `{ queued: 3, completed: 10 }`; states with no rows are absent. */
export type StateCounts = Record<string, number>;

export interface RecentFailure {
  id: string;
  accountId: string;
  phoneNumber: string;
  state: string;
  at: number;
  sipCode: number | null;
  reason: string | null;
}

/**
 * What an operator watches: GET /metrics (computed at scrape time) and the panel's
 * overview. One grouped query per figure, so a scrape costs a handful of index scans
 * whatever the size of the history. `accountId` null: the whole appliance.
 */
export interface OpsCountsStore {
  callsByState(accountId?: string | null): Promise<StateCounts>;
  alertsByState(accountId?: string | null): Promise<StateCounts>;
  /** Finished calls created since `since`, by final state (the overview's "today"). */
  finishedSince(since: number, accountId?: string | null): Promise<StateCounts>;
  /** The newest calls that ended without reaching anyone, with their last SIP answer. */
  recentFailures(limit: number, accountId?: string | null): Promise<RecentFailure[]>;
  /** Callback events not yet delivered nor given up, and when the oldest was made (null: none). */
  outboxBacklog(): Promise<{ pending: number; oldestCreatedAt: number | null }>;
}

const FAILED = `(${sqlList(FAILED_STATES)})`;

const byState = (rows: { state: string; n: number }[]): StateCounts => Object.fromEntries(rows.map((r) => [r.state, r.n]));

export function createOpsCountsStore(db: SqlConnection): OpsCountsStore {
  // IN_ACCOUNT (account-scope.ts): one prepared statement serves one account and the administrator's every account.
  const calls = db.query(`SELECT state, count(*) AS n FROM calls WHERE ${IN_ACCOUNT} GROUP BY state`);
  const alerts = db.query(`SELECT state, count(*) AS n FROM alerts WHERE ${IN_ACCOUNT} GROUP BY state`);
  const finished = db.query(
    `SELECT state, count(*) AS n FROM calls
     WHERE created_at >= $since AND finished_at IS NOT NULL AND ${IN_ACCOUNT} GROUP BY state`,
  );
  const failures = db.query(
    `SELECT id, account_id AS accountId, phone_number AS phoneNumber, state, updated_at AS at,
            last_sip_code AS sipCode, last_reason AS reason
     FROM calls WHERE state IN ${FAILED} AND ${IN_ACCOUNT}
     ORDER BY updated_at DESC, id DESC LIMIT $limit`,
  );
  const outbox = db.query(`SELECT count(*) AS pending, min(created_at) AS oldestCreatedAt FROM callback_outbox WHERE state = 'pending'`);
  return {
    callsByState: async (a = null) => byState((await calls.all({ account: a })) as { state: string; n: number }[]),
    alertsByState: async (a = null) => byState((await alerts.all({ account: a })) as { state: string; n: number }[]),
    finishedSince: async (since, a = null) => byState((await finished.all({ since, account: a })) as { state: string; n: number }[]),
    recentFailures: async (limit, a = null) => (await failures.all({ limit, account: a })) as RecentFailure[],
    outboxBacklog: async () => (await outbox.get()) as { pending: number; oldestCreatedAt: number | null },
  };
}
