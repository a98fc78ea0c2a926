import type { CallSource } from './call-record';
import type { SqlConnection } from './sql/connection';
import type { SqlDatabase } from './sql/database';
import type { Tx } from './tables';
import { newId } from './ids';
import { fastChargeSql, shareOf } from './usage';

/** A new alert and its calls, charged: what a plain request (no key, policy, window, Idempotency-Key or signature) makes. */
export interface QueueAtOnce {
  accountId: string;
  credentialId: string | null;
  /** The alert's source (a native source's name, or the endpoint). */
  alertSource: string;
  labels: Record<string, string> | null;
  /** The calls' source (CallSource). */
  callSource: CallSource;
  message: string;
  /** Each gets a call, in this order; at least one. */
  phoneNumbers: readonly string[];
  /** The credit period charged (`YYYY-MM`) and the account's credit in it. */
  period: string;
  credit: number;
  /** Why the new calls would wait (no SIP trunk), or null. */
  lastReason: string | null;
  now: number;
}

/**
 * What queueing a plain request does in the full unit of work (intake/enqueue.ts: the fast
 * path of usage.tryCharge, alerts.create, calls.enqueue), as ONE statement that PostgreSQL
 * runs as its own transaction: one round trip instead of three, and one statement for the
 * server instead of six (BENCHMARKS.md "Bundles in a few statements, a plain request in one
 * statement, the history in one insert"). The alert and calls are inserted only from the
 * charge's row, so a charge that found no shard with room writes nothing and the request goes
 * on to the full unit, which decides the rest (the period's first charge, the exact path, too
 * little credit). The rows are the same as the full unit's (queue-at-once.pg.test.ts holds
 * them side by side).
 */
const QUEUE_AT_ONCE_SQL = `WITH charge AS (${fastChargeSql('postgres')}),
  alert AS (
    INSERT INTO alerts (id, account_id, credential_id, alert_key, source, message, state, created_at, updated_at, labels)
    SELECT $alert, $a, $cred, NULL, $alertSource, $message, 'open', $now, $now, $labels FROM charge
    RETURNING id),
  queued AS (
    INSERT INTO calls (id, account_id, credential_id, source, phone_number, message, state, attempts,
                       run_after, created_at, updated_at, alert_id, charged, escalation_ordinal, last_reason)
    SELECT c.value ->> 'id', $a, $cred, $callSource, c.value ->> 'number', $message, 'queued', 0,
           $now, $now, $now, alert.id, 1, 0, $reason
    FROM alert, jsonb_array_elements(CAST($calls AS text)::jsonb) WITH ORDINALITY AS c(value, n)
    ORDER BY c.n
    RETURNING id)
SELECT count(*) AS queued FROM queued`;

const LANDED_SQL = 'SELECT id FROM alerts WHERE id = $alert';

export type QueueAtOnceFn = (q: QueueAtOnce) => Promise<{ alertId: string; callIds: string[] } | null>;

/**
 * store.queueAtOnce: on PostgreSQL one statement (above), on SQLite a unit of the group commit
 * without a savepoint of its own (below). Resolves null when the charge found no room.
 */
export function createQueueAtOnce(db: SqlDatabase, viewOf: TablesOn): QueueAtOnceFn | null {
  const queue = db.alone ? postgresQueueAtOnce(db, db.alone.bind(db)) : db.unguarded ? sqliteQueueAtOnce(db.unguarded.bind(db), viewOf) : null;
  if (!queue) return null;
  return async (q) => {
    if (q.phoneNumbers.length === 0) throw new Error('queueAtOnce: no number to call');
    return queue(q);
  };
}

/** The table groups on a transaction's connection (index.ts viewOf). */
type TablesOn = (conn: SqlConnection) => Pick<Tx, 'usage' | 'alerts' | 'calls'>;

/**
 * On SQLite, the full unit's own statements (usage.tryCharge, alerts.create, calls.enqueue:
 * the same rows by construction), run `unguarded`: a savepoint of the unit's own cost a plain
 * request ~5 µs of copying pages (BENCHMARKS.md "Pages a group commit writes; the savepoint
 * a plain request paid for"). Without one, a statement that failed would leave the unit half
 * done, and its whole batch is rolled back instead (sqlite/group-commit.ts). Nothing here
 * fails but the database itself: nothing in the unit but these statements can throw, the ids
 * are new, the account's row is there (accounts are never deleted), and a charge that finds
 * no room writes no alert or call.
 */
function sqliteQueueAtOnce(unguarded: NonNullable<SqlDatabase['unguarded']>, viewOf: TablesOn): QueueAtOnceFn {
  return async (q) => {
    const alert = { accountId: q.accountId, credentialId: q.credentialId, key: null, source: q.alertSource, message: q.message, labels: q.labels };
    return unguarded(async (conn) => {
      const tx = viewOf(conn);
      if (!(await tx.usage.tryCharge(q.accountId, q.period, q.phoneNumbers.length, q.credit))) return null;
      const alertId = await tx.alerts.create(alert, q.now);
      const callIds = await tx.calls.enqueue(
        q.phoneNumbers.map((phoneNumber) => ({
          accountId: q.accountId,
          credentialId: q.credentialId,
          source: q.callSource,
          phoneNumber,
          message: q.message,
          alertId,
          escalationOrdinal: 0,
          lastReason: q.lastReason,
        })),
        q.now,
      );
      return { alertId, callIds };
    });
  };
}

function postgresQueueAtOnce(db: SqlDatabase, alone: NonNullable<SqlDatabase['alone']>): QueueAtOnceFn {
  const landed = db.reader.query(LANDED_SQL);
  return async (q) => {
    // More calls than a shard's share: only the exact path can charge them (usage.tryCharge).
    if (q.phoneNumbers.length > shareOf(q.credit)) return null;
    const alertId = newId('alt');
    const calls = q.phoneNumbers.map((number) => ({ id: newId('call'), number }));
    const params = {
      a: q.accountId,
      p: q.period,
      n: calls.length,
      share: shareOf(q.credit),
      alert: alertId,
      cred: q.credentialId,
      alertSource: q.alertSource,
      message: q.message,
      now: q.now,
      labels: q.labels ? JSON.stringify(q.labels) : null,
      callSource: q.callSource,
      calls: JSON.stringify(calls),
      reason: q.lastReason,
    };
    let queued: number;
    try {
      const [row] = (await alone(QUEUE_AT_ONCE_SQL, params)) as { queued: number }[];
      queued = Number(row?.queued ?? 0);
    } catch (e) {
      // Run again after a lost connection whose first run had committed: the alert's id is
      // taken (unique_violation), and the rows are ours (SqlDatabase.alone).
      if ((e as { errno?: unknown })?.errno !== '23505' || (await landed.get({ alert: alertId })) === null) throw e;
      queued = calls.length;
    }
    if (queued === 0) return null;
    if (queued !== calls.length) throw new Error(`queueAtOnce: ${queued} of ${calls.length} calls inserted`);
    return { alertId, callIds: calls.map((c) => c.id) };
  };
}
