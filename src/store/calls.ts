import { IN_ACCOUNT, type AccountScope } from './account-scope';
import type { SqlConnection } from './sql/connection';
import { dialectOf } from './sql/dialect';
import type { AmdReason, AnsweredBy, CallState } from '../call-model';
import { newId } from '../ids';
import { IN_PROGRESS_SQL, toCall, type CallRecord, type CallRow, type CallSource } from './call-record';
import { createCallClaim } from './call-claim';
import { createEdgeRecorder, type CallEvent, type HeldCall } from './call-edges';
import { createTextNoticesStore } from './text-notices';

export interface NewCall {
  accountId: string;
  credentialId: string | null;
  source: CallSource;
  phoneNumber: string;
  message: string;
  /** The alert the call is for; the intake always gives one. */
  alertId?: string | null;
  /** Whether queuing it took a credit (default: yes, unless source is `test`). */
  charged?: boolean;
  /** The escalation step placing it (see CallRecord.escalationOrdinal). */
  escalationOrdinal?: number;
  /** Why it waits, from the start (e.g. no SIP trunk configured). */
  lastReason?: string | null;
  /** The person it reaches and which of their phones (docs/on-call.md "People"); absent: a bare number. */
  person?: { personId: string; phone: number } | null;
  /** A verification call of that person's phone (docs/on-call.md "Verification"); needs `person`, unless a hand-off call. */
  verify?: boolean;
  /** With `verify`: the hand-off it asks to confirm (docs/on-call.md "Hand-off calls"); its callee may be a bare number. */
  handoffId?: string | null;
}

export interface CallsStore {
  /** Inserts queued calls; run inside the transaction that charges their credit. */
  enqueue(calls: NewCall[], now: number): Promise<string[]>;
  get(id: string): Promise<CallRecord | null>;
  /** The call if it belongs to the account (account-scope.ts): another account's is null. */
  getInAccount(account: AccountScope, id: string): Promise<CallRecord | null>;
  /** Every call of an alert, oldest first. */
  ofAlert(alertId: string): Promise<CallRecord[]>;
  /** Calls bundled into (spoken in) this call. */
  bundledIn(callId: string): Promise<CallRecord[]>;
  list(filter?: { accountId?: string; limit?: number }): Promise<CallRecord[]>;
  /**
   * Takes the next call that is due, or whose lease ran out (a crashed worker),
   * with one `UPDATE … WHERE id = (SELECT … LIMIT 1) RETURNING` so two workers never hold
   * the same call. A number dialled within `pacing.gapMs`, or `pacing.perHour` times in the
   * last hour, is skipped; the INVITE about to be sent is counted (dials). The account's other
   * due calls to the same number are bundled into this one.
   * The claim counts as an attempt. A number that has a call in progress under a live
   * lease is skipped, so one number NEVER gets two calls at once. The edge is recorded
   * in call_events (`from` is the state before the claim).
   */
  claim(now: number, leaseMs: number, pacing?: Pacing): Promise<ClaimedCall | null>;
  /**
   * Moves a call from `from` to `to` and records the event, only if the call is still in
   * `from` and (when `attempt` is given) still on that attempt: a worker whose lease was
   * taken over cannot overwrite the newer attempt. Returns false when nothing changed.
   */
  move(id: string, change: CallChange): Promise<boolean>;
  /**
   * `move` for many calls at once (a call and the calls bundled into it), in one statement
   * and one insert of their events: each listed call moves only if it is still in `from` on
   * its own attempt. Returns the ids that moved. A bundle of thousands of alerts for one
   * number moves in a few statements, not a few per call (BENCHMARKS "Alert storm").
   */
  moveAll(held: readonly HeldCall[], change: Omit<CallChange, 'attempt'>): Promise<string[]>;
  /** The calls with these ids that exist (any order). */
  getMany(ids: readonly string[]): Promise<CallRecord[]>;
  /**
   * Queued calls created before `cutoff` and due before it (at most `limit`, by due time):
   * the no-trunk expiry sweep. A range of the (state, run_after) index, so the cost does
   * not grow with the backlog; a call waiting to retry is found once its retry is due.
   */
  queuedBefore(cutoff: number, limit: number): Promise<CallRecord[]>;
  /**
   * Says why queued calls wait (last_reason) without moving them: no edge, no event. Only
   * calls inserted after `cursor` are looked at (0: all); returns the cursor to pass next
   * time, so a call is looked at once however long the queue grows.
   */
  noteWaiting(reason: string, cursor: number): Promise<number>;
  /** Pushes the lease of calls this worker still holds to `leaseMs` from now by the lease clock (a heartbeat); never shortens one. */
  renewLeases(ids: string[], leaseMs: number, now: number): Promise<void>;
  events(id: string): Promise<CallEvent[]>;
  /**
   * Every call an escalation step placed for the alert (its `escalation_ordinal`) ended on a
   * voicemail (docs/telephony.md "Voicemail detection"): nobody of that step can still answer.
   */
  stepAllOnVoicemail(alertId: string, ordinal: number): Promise<boolean>;
}

/** Per-number limits on INVITEs (calls.per_number_gap_s, calls.per_number_per_hour); 0: none. */
export interface Pacing {
  gapMs: number;
  perHour: number;
}

export interface ClaimedCall extends CallRecord {
  /** The state before the claim: queued, or in progress under a lease that ran out. */
  from: CallState;
  /**
   * Calls of the same account and number that were due too: spoken in this call, each
   * moved along with it (`bundledInto` names this call).
   */
  bundled: CallRecord[];
}

export interface CallChange {
  from: CallState;
  to: CallState;
  at: number;
  attempt: number;
  sipCode?: number | null;
  reason?: string | null;
  /** Back to the queue: not claimed before this. */
  runAfter?: number;
  answered?: boolean;
  acknowledged?: boolean;
  finished?: boolean;
  /**
   * The attempt does not count: our own shutdown cancelled it before the answer, so a
   * restart (or several) never uses up a call's calls.max_attempts.
   */
  refundAttempt?: boolean;
  /** The trunk the attempt goes out on, once chosen (docs/telephony.md "SIP trunks: several, in order"). */
  trunk?: string | null;
  /** With the answer: who answered and why (docs/telephony.md "Voicemail detection"), on the call and its event. */
  answeredBy?: AnsweredBy | null;
  amdReason?: AmdReason | null;
}

/**
 * A queued call's row, the one text that writes it: `enqueue` below, and a plain request's one
 * statement on PostgreSQL (queue-at-once.ts), which takes each call's id and number from a
 * JSON list and its alert from the alert it inserts (`from`). Parameters: $id $phone $alert
 * $source (unless given) and $account $cred $source $message $now $charged $ordinal $reason.
 */
export const QUEUED_CALL_ROW = {
  columns: `id, account_id, credential_id, source, phone_number, message, state, attempts,
            run_after, created_at, updated_at, alert_id, charged, escalation_ordinal, last_reason`,
};

export function queuedCallValues(from: { id?: string; phone?: string; alert?: string; source?: string } = {}): string {
  const { id = '$id', phone = '$phone', alert = '$alert', source = '$source' } = from;
  return `${id}, $account, $cred, ${source}, ${phone}, $message, 'queued', 0, $now, $now, $now, ${alert}, $charged, $ordinal, $reason`;
}

const INSERT_QUEUED_CALL = `INSERT INTO calls (${QUEUED_CALL_ROW.columns}) VALUES (${queuedCallValues()})`;
/** The same row for a call that reaches a person (docs/on-call.md "People"). */
const INSERT_PERSON_CALL = `INSERT INTO calls (${QUEUED_CALL_ROW.columns}, person_id, person_phone, verify, handoff_id) VALUES (${queuedCallValues()}, $person, $personPhone, $verify, $handoff)`;

export function createCallsStore(db: SqlConnection): CallsStore {
  const sql = dialectOf(db.dialect);
  // SQLite's `+state` walks the rowid range, not the state index (every queued call).
  // On PostgreSQL, where several appliances insert at once, a call may commit with a rowid
  // below a cursor already read: it was inserted with its reason already set (enqueue's
  // lastReason), so only calls queued before the trunk went away depend on this pass.
  const noteWaiting = db.query(
    `UPDATE calls SET last_reason = $reason
     WHERE rowid > $cursor AND ${sql.unindexed('state')} = 'queued' AND ${sql.distinct('last_reason', '$reason')}`,
  );
  const recordEdge = createEdgeRecorder(db);
  // Each listed call ($held) still in $from on its own attempt takes the edge. Driven from
  // the list by the primary key: SQLite would otherwise walk the state's calls and scan the
  // list for each (a bundle of 3,331: 3.7 s instead of 7 ms).
  const moveHeld = db.query(
    `UPDATE calls SET state = $to, updated_at = $at, attempts = attempts - $refund,
       last_sip_code = COALESCE($code, last_sip_code), last_reason = COALESCE($reason, last_reason),
       run_after = COALESCE($runAfter, run_after),
       lease_until = CASE WHEN $to IN (${IN_PROGRESS_SQL}) THEN lease_until ELSE NULL END,
       answered_at = CASE WHEN $answered = 1 THEN $at ELSE answered_at END,
       acknowledged_at = CASE WHEN $acknowledged = 1 THEN $at ELSE acknowledged_at END,
       finished_at = CASE WHEN $finished = 1 THEN $at ELSE finished_at END,
       answered_by = COALESCE($answeredBy, answered_by), amd_reason = COALESCE($amdReason, amd_reason)
     FROM (SELECT value ->> 'id' AS held_id, CAST(value ->> 'attempt' AS INTEGER) AS held_attempt FROM ${sql.jsonObjects('$held')}) AS held
     WHERE calls.id = held.held_id AND ${sql.unindexed('calls.attempts')} = held.held_attempt AND ${sql.unindexed('calls.state')} = $from
     RETURNING calls.id`,
  );
  const byIds = db.query(`SELECT * FROM calls WHERE id IN (SELECT value FROM ${sql.jsonTexts('$ids')})`);
  const claim = createCallClaim(db, recordEdge);
  // Leases are measured by the lease clock (dialect.ts leaseClock), as the claim does.
  const leaseNow = sql.leaseClock('$now');
  const moveAll = async (held: readonly HeldCall[], c: Omit<CallChange, 'attempt'>): Promise<string[]> => {
    if (held.length === 0) return [];
    const list = JSON.stringify(held);
    const moved = new Set(
      ((await moveHeld.all({
        held: list,
        from: c.from,
        to: c.to,
        at: c.at,
        code: c.sipCode ?? null,
        reason: c.reason ?? null,
        runAfter: c.runAfter ?? null,
        answered: c.answered ? 1 : 0,
        acknowledged: c.acknowledged ? 1 : 0,
        finished: c.finished ? 1 : 0,
        refund: c.refundAttempt ? 1 : 0,
        answeredBy: c.answeredBy ?? null,
        amdReason: c.amdReason ?? null,
      })) as { id: string }[]).map((r) => r.id),
    );
    const edges = moved.size === held.length ? held : held.filter((h) => moved.has(h.id));
    if (edges.length > 0) await recordEdge(edges, { at: c.at, from: c.from, to: c.to, code: c.sipCode, reason: c.reason, trunk: c.trunk, answeredBy: c.answeredBy, amdReason: c.amdReason });
    return edges.map((h) => h.id);
  };
  return {
    async enqueue(calls, now) {
      const insert = db.query(INSERT_QUEUED_CALL);
      const notices = createTextNoticesStore(db);
      const ids: string[] = [];
      for (const c of calls) {
        const id = newId('call');
        const person =
          c.person || c.verify
            ? { person: c.person?.personId ?? null, personPhone: c.person?.phone ?? null, verify: c.verify ? 1 : 0, handoff: c.handoffId ?? null }
            : null;
        // Sent, not waited for: the ids are ours, and the COMMIT waits for them (sql/connection.ts send).
        (person ? db.query(INSERT_PERSON_CALL) : insert).send({
          ...person,
          id,
          account: c.accountId,
          cred: c.credentialId,
          source: c.source,
          phone: c.phoneNumber,
          message: c.message,
          now,
          alert: c.alertId ?? null,
          charged: (c.charged ?? c.source !== 'test') ? 1 : 0,
          ordinal: c.escalationOrdinal ?? 0,
          reason: c.lastReason ?? null,
        });
        // The one place a call for a person is queued (intake, escalation step, next phone):
        // their texts and e-mails are owed from here, once per alert and person, drained after
        // COMMIT by the notifier (docs/second-path.md "When texts and e-mails are sent").
        if (c.person && c.alertId) notices.owe({ alertId: c.alertId, personId: c.person.personId, accountId: c.accountId, createdAt: now });
        ids.push(id);
      }
      return ids;
    },
    async getInAccount(account, id) {
      const row = (await db.query(`SELECT * FROM calls WHERE id = $id AND ${IN_ACCOUNT}`).get({ id, account })) as CallRow | null;
      return row ? toCall(row) : null;
    },
    async get(id) {
      const row = (await db.query('SELECT * FROM calls WHERE id = $id').get({ id })) as CallRow | null;
      return row ? toCall(row) : null;
    },
    async ofAlert(alertId) {
      return ((await db.query('SELECT * FROM calls WHERE alert_id = $a ORDER BY created_at, id').all({ a: alertId })) as CallRow[]).map(toCall);
    },
    async bundledIn(callId) {
      return ((await db.query('SELECT * FROM calls WHERE bundled_into = $c ORDER BY created_at, id').all({ c: callId })) as CallRow[]).map(toCall);
    },
    async list({ accountId, limit = 100 } = {}) {
      const rows = accountId
        ? await db
            .query('SELECT * FROM calls WHERE account_id = $a ORDER BY created_at DESC, id LIMIT $limit')
            .all({ a: accountId, limit })
        : await db.query('SELECT * FROM calls ORDER BY created_at DESC, id LIMIT $limit').all({ limit });
      return (rows as CallRow[]).map(toCall);
    },
    claim,
    async move(id, c) {
      const { attempt, ...change } = c;
      return (await moveAll([{ id, attempt }], change)).length === 1;
    },
    moveAll,
    async getMany(ids) {
      return ids.length === 0 ? [] : ((await byIds.all({ ids: JSON.stringify(ids) })) as CallRow[]).map(toCall);
    },
    async queuedBefore(cutoff, limit) {
      return (
        (await db
          .query(`SELECT * FROM calls WHERE state = 'queued' AND run_after < $cutoff AND created_at < $cutoff ORDER BY run_after LIMIT $limit`)
          .all({ cutoff, limit })) as CallRow[]
      ).map(toCall);
    },
    async noteWaiting(reason, cursor) {
      // The rowid grows with every insert and calls are never deleted; one writer at a time,
      // so a call committed after this statement gets a rowid above the returned cursor.
      await noteWaiting.run({ reason, cursor });
      return ((await db.query('SELECT COALESCE(max(rowid), 0) AS n FROM calls').get()) as { n: number }).n;
    },
    async renewLeases(ids, leaseMs, now) {
      if (ids.length === 0) return;
      await db
        .query(
          `UPDATE calls SET lease_until = ${sql.greatest('COALESCE(lease_until, 0)', `${leaseNow} + $leaseMs`)}, updated_at = $now
           WHERE id IN (SELECT value FROM ${sql.jsonTexts('$ids')}) AND state IN (${IN_PROGRESS_SQL})`,
        )
        .run({ ids: JSON.stringify(ids), leaseMs, now });
    },
    async stepAllOnVoicemail(alertId, ordinal) {
      const r = (await db
        .query(
          `SELECT COUNT(*) AS calls, SUM(CASE WHEN state = 'voicemail' THEN 1 ELSE 0 END) AS voicemail
           FROM calls WHERE alert_id = $alert AND escalation_ordinal = $ordinal`,
        )
        .get({ alert: alertId, ordinal })) as { calls: number | string; voicemail: number | string | null };
      return Number(r.calls) > 0 && Number(r.voicemail ?? 0) === Number(r.calls);
    },
    async events(id) {
      return (
        (await db
          .query('SELECT at, attempt, from_state, to_state, sip_code, reason, trunk, answered_by, amd_reason FROM call_events WHERE call_id = $id ORDER BY id')
          .all({ id })) as {
          at: number;
          attempt: number;
          from_state: CallState;
          to_state: CallState;
          sip_code: number | null;
          reason: string | null;
          trunk: string | null;
          answered_by: AnsweredBy | null;
          amd_reason: AmdReason | null;
        }[]
      ).map((e) => ({ at: e.at, attempt: e.attempt, from: e.from_state, to: e.to_state, sipCode: e.sip_code, reason: e.reason, trunk: e.trunk, answeredBy: e.answered_by, amdReason: e.amd_reason }));
    },
  };
}
