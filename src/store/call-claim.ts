import { CLAIMED_STATE, type CallState } from '../call-model';
import { IN_PROGRESS_SQL, toCall, type CallRow } from './call-record';
import type { CallsStore } from './calls';
import type { RecordEdge } from './call-edges';
import type { SqlConnection } from './sql/connection';
import { dialectOf } from './sql/dialect';

/** PostgreSQL advisory lock class of a number's claim turn (any number, the same on every appliance). */
const CLAIM_LOCK = 0x5641_0001;

/** Calls a PostgreSQL claim looks at before it gives up for this round (the dialer asks again). */
const CLAIM_CANDIDATES = 8;

/**
 * Verification calls are claimed before every alert call that is due (docs/on-call.md
 * "Verification": never queued behind alerts); among each kind, first due first.
 */
const VERIFY_FIRST = 'c.verify DESC,';

/**
 * The dialer's claim (CallsStore.claim): the next due call whose number is free and within
 * its pacing, under a lease, with the calls of the same account and number that were due
 * too (its bundle), each with its edge recorded.
 */
export function createCallClaim(db: SqlConnection, recordEdge: RecordEdge): CallsStore['claim'] {
  const sql = dialectOf(db.dialect);
  // Leases are measured by the lease clock (dialect.ts leaseClock: the database's on
  // PostgreSQL), so appliances whose clocks differ still agree when one ran out
  // (docs/high-availability.md). `$now` (this appliance's clock) still decides what is due.
  const leaseNow = sql.leaseClock('$now');
  // A number that has a call in progress under a live lease is skipped: never two at once.
  const claimable = `((c.state = 'queued' AND c.run_after <= $now)
                        OR (c.state IN (${IN_PROGRESS_SQL}) AND c.lease_until < ${leaseNow}))
                   AND NOT EXISTS (SELECT 1 FROM calls o
                                   WHERE o.phone_number = c.phone_number AND o.id <> c.id
                                     AND o.state IN (${IN_PROGRESS_SQL}) AND o.lease_until >= ${leaseNow})
                   -- docs/on-call.md "People": a retry of a person's phone waits while a later phone of
                   -- theirs in the same step is not tried yet or still ringing (the first phone's
                   -- own retries come after the person's last phone).
                   AND (c.state <> 'queued' OR c.person_id IS NULL OR c.attempts = 0
                        OR NOT EXISTS (SELECT 1 FROM calls p
                                       WHERE p.alert_id = c.alert_id AND p.person_id = c.person_id
                                         AND p.escalation_ordinal = c.escalation_ordinal AND p.person_phone > c.person_phone
                                         AND (p.state IN (${IN_PROGRESS_SQL}) OR (p.state = 'queued' AND p.attempts < c.attempts))))
                   -- Pacing holds new calls and retries; a call whose worker died is redialled.
                   AND (c.state <> 'queued'
                        OR (NOT EXISTS (SELECT 1 FROM dials d WHERE d.phone_number = c.phone_number AND d.at > $gapSince)
                            AND ($perHour = 0 OR (SELECT count(*) FROM dials d
                                                  WHERE d.phone_number = c.phone_number AND d.at > $hourSince) < $perHour)))`;
  const take = (which: string) =>
    db.query(
      `UPDATE calls SET state = '${CLAIMED_STATE}', claimed_from = state, lease_until = ${leaseNow} + $leaseMs,
         attempts = attempts + 1, updated_at = $now, bundled_into = NULL
       WHERE id = (SELECT c.id FROM calls c WHERE ${which} AND ${claimable}
                   ORDER BY ${VERIFY_FIRST} c.run_after, c.created_at, c.rowid LIMIT 1${sql.skipLocked ? ' FOR UPDATE OF c SKIP LOCKED' : ''})
       RETURNING *`,
    );
  // SQLite: one statement (goqite), its writer is one at a time (BEGIN IMMEDIATE).
  const claimNext = take('TRUE');
  // PostgreSQL: several appliances claim from one queue at once. SKIP LOCKED passes over a
  // row another appliance is taking or moving right now. The per-number checks above must
  // also see every other claim for the same number: so a claim first picks candidates, then
  // takes its number's turn (a transaction advisory lock, held to COMMIT; a number another
  // appliance is claiming right now is passed over), and only then takes the call, in a
  // statement that sees every claim committed before the turn was taken. Numbers take turns;
  // claims for different numbers never wait for each other.
  const candidates =
    db.dialect === 'postgres'
      ? db.query(`SELECT c.id, c.phone_number AS number FROM calls c WHERE ${claimable} ORDER BY ${VERIFY_FIRST} c.run_after, c.created_at, c.rowid LIMIT ${CLAIM_CANDIDATES}`)
      : null;
  const numberTurn = db.dialect === 'postgres' ? db.query(`SELECT pg_try_advisory_xact_lock(${CLAIM_LOCK}, hashtext($number)) AS got`) : null;
  const claimThis = take('c.id = $id');
  const recordDial = db.query('INSERT INTO dials (phone_number, at, call_id) VALUES ($number, $at, $call)');
  const bundleInto = db.query(
    `UPDATE calls SET state = '${CLAIMED_STATE}', claimed_from = state, bundled_into = $carrier, lease_until = ${leaseNow} + $leaseMs,
       attempts = attempts + 1, updated_at = $now
     WHERE account_id = $account AND phone_number = $number AND state = 'queued' AND run_after <= $now AND id <> $carrier
       -- A verification call speaks only its own question, and is never spoken inside an alert call.
       AND verify = 0 AND $carrierVerify = 0
     RETURNING *, rowid AS seq`,
  );
  return async (now, leaseMs, pacing = { gapMs: 0, perHour: 0 }) => {
    // `claimed_from` keeps the state before the claim, which RETURNING cannot show.
    const params = { now, leaseMs, gapSince: now - pacing.gapMs, hourSince: now - 3_600_000, perHour: pacing.perHour };
    type Claimed = CallRow & { claimed_from: CallState };
    let row: Claimed | null = null;
    if (!candidates || !numberTurn) {
      row = (await claimNext.get(params)) as Claimed | null;
    } else {
      for (const c of (await candidates.all(params)) as { id: string; number: string }[]) {
        if (((await numberTurn.get({ number: c.number })) as { got: boolean | number }).got) {
          row = (await claimThis.get({ ...params, id: c.id })) as Claimed | null;
          if (row) break;
        }
      }
    }
    if (!row) return null;
    const from = row.claimed_from;
    await recordDial.run({ number: row.phone_number, at: now, call: row.id });
    await recordEdge([{ id: row.id, attempt: row.attempts }], {
      at: now,
      from,
      to: CLAIMED_STATE,
      reason: from === 'queued' ? null : 'lease expired: the previous worker stopped',
    });
    // In the order they were queued (RETURNING promises none): spoken first come, first named.
    const bundled = ((await bundleInto.all({ carrier: row.id, account: row.account_id, number: row.phone_number, now, leaseMs, carrierVerify: Number(row.verify ?? 0) })) as (CallRow & { seq: number })[])
      .sort((a, b) => a.created_at - b.created_at || a.seq - b.seq)
      .map(toCall);
    if (bundled.length > 0) {
      await recordEdge(bundled.map((b) => ({ id: b.id, attempt: b.attempts })), { at: now, from: 'queued', to: CLAIMED_STATE, reason: `bundled into ${row.id}` });
    }
    return { ...toCall(row), from, bundled };
  };
}
