import type { CallSource } from './call-record';
import { NEW_ALERT_ROW } from './alerts';
import { QUEUED_CALL_ROW, queuedCallValues } from './calls';
import type { SqlDatabase } from './sql/database';
import { newId } from '../ids';
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
 * PostgreSQL: the fast path of usage.tryCharge, alerts.create and calls.enqueue (the writes of
 * intake/enqueue.ts's unit for a plain request) as ONE statement that PostgreSQL runs as its
 * own transaction: one round trip and one statement instead of six (BEGIN, the transaction's
 * id, the charge, the alert, the call, COMMIT), which costs the appliance ~30 % more CPU a
 * request (BENCHMARKS.md "Bundles in a few statements, a plain request in one statement, the
 * history in one insert", and issue 44's measurement). It is not a second copy of those writes:
 * the charge, the alert's row and the calls' rows are the table groups' own texts
 * (usage.ts fastChargeSql, alerts.ts NEW_ALERT_ROW, calls.ts QUEUED_CALL_ROW), chained here.
 * The alert and calls are inserted only from the charge's row, so a charge that found no shard
 * with room writes nothing and the request goes on to the unit, which decides the rest (the
 * period's first charge, the exact path, too little credit).
 */
const QUEUE_AT_ONCE_SQL = `WITH charge AS (${fastChargeSql('postgres')}),
  alert AS (
    INSERT INTO alerts (${NEW_ALERT_ROW.columns})
    SELECT ${NEW_ALERT_ROW.values} FROM charge
    RETURNING id),
  queued AS (
    INSERT INTO calls (${QUEUED_CALL_ROW.columns})
    SELECT ${queuedCallValues({ id: "c.value ->> 'id'", phone: "c.value ->> 'number'", alert: 'alert.id', source: '$callSource' })}
    FROM alert, jsonb_array_elements(CAST($calls AS text)::jsonb) WITH ORDINALITY AS c(value, n)
    ORDER BY c.n
    RETURNING id)
SELECT count(*) AS queued FROM queued`;

const LANDED_SQL = 'SELECT id FROM alerts WHERE id = $id';

export type QueueAtOnceFn = (q: QueueAtOnce) => Promise<{ alertId: string; callIds: string[] } | null>;

/**
 * store.queueAtOnce, PostgreSQL only (SQLite runs the unit itself without a savepoint:
 * UnitOptions.savepoint). Resolves null when the charge found no room.
 */
export function createQueueAtOnce(db: SqlDatabase): QueueAtOnceFn | null {
  if (!db.alone) return null;
  const alone = db.alone.bind(db);
  const landed = db.reader.query(LANDED_SQL);
  return async (q) => {
    if (q.phoneNumbers.length === 0) throw new Error('queueAtOnce: no number to call');
    // More calls than a shard's share: only the exact path can charge them (usage.tryCharge).
    if (q.phoneNumbers.length > shareOf(q.credit)) return null;
    const alertId = newId('alt');
    const calls = q.phoneNumbers.map((number) => ({ id: newId('call'), number }));
    const params = {
      // The charge (usage.ts fastChargeSql).
      a: q.accountId,
      p: q.period,
      n: calls.length,
      share: shareOf(q.credit),
      // The alert's row (alerts.ts NEW_ALERT_ROW) and the calls' (calls.ts QUEUED_CALL_ROW), as alerts.create and calls.enqueue fill them.
      id: alertId,
      account: q.accountId,
      cred: q.credentialId,
      key: null,
      source: q.alertSource,
      message: q.message,
      now: q.now,
      labels: q.labels ? JSON.stringify(q.labels) : null,
      callSource: q.callSource,
      calls: JSON.stringify(calls),
      charged: 1,
      ordinal: 0,
      reason: q.lastReason,
    };
    let queued: number;
    try {
      const [row] = (await alone(QUEUE_AT_ONCE_SQL, params)) as { queued: number }[];
      queued = Number(row?.queued ?? 0);
    } catch (e) {
      // Run again after a lost connection whose first run had committed: the alert's id is
      // taken (unique_violation), and the rows are ours (SqlDatabase.alone).
      if ((e as { errno?: unknown })?.errno !== '23505' || (await landed.get({ id: alertId })) === null) throw e;
      queued = calls.length;
    }
    if (queued === 0) return null;
    if (queued !== calls.length) throw new Error(`queueAtOnce: ${queued} of ${calls.length} calls inserted`);
    return { alertId, callIds: calls.map((c) => c.id) };
  };
}
