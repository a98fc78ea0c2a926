import { newId } from '../ids';
import { claimParams, leasedRows, type Lease } from './lease';
import type { SqlConnection } from './sql/connection';

/**
 * Hand-offs of schedules with `handoff_call` (docs/on-call.md "Hand-off calls"): written by
 * the on-call watch at the change, worked through by the hand-off loop under a lease
 * (src/handoff/loop.ts has the state machine), confirmed by a 1 in the call
 * mover's transaction.
 */
export type HandoffState = 'calling' | 'raised' | 'confirmed' | 'ended';

export interface OnCallParty {
  name: string | null;
  number: string;
  /** per_… when a person; null: a bare number participant. */
  person: string | null;
}

export interface HandoffRecord {
  id: string;
  accountId: string;
  scheduleId: string;
  scheduleName: string;
  timeZone: string;
  at: number;
  /** When the incoming shift ends; null: no change within the horizon. */
  until: number | null;
  incoming: OnCallParty;
  /** null: nobody was on call before. */
  outgoing: OnCallParty | null;
  state: HandoffState;
  tries: number;
  callId: string | null;
  nextAt: number;
  alertId: string | null;
  confirmedAt: number | null;
  endedReason: string | null;
  createdAt: number;
}

export type NewHandoff = Pick<HandoffRecord, 'accountId' | 'scheduleId' | 'scheduleName' | 'timeZone' | 'at' | 'until' | 'incoming' | 'outgoing'>;

/** What one look of the loop decided: written only while its lease holds and the state is as it read it. */
export interface HandoffStep {
  state: HandoffState;
  tries: number;
  callId: string | null;
  nextAt: number;
  alertId: string | null;
  endedReason: string | null;
}

export interface HandoffsStore {
  /**
   * A new hand-off (state `calling`, due at once); the schedule's earlier hand-offs still at
   * work end (`superseded`). False: this schedule's hand-off at that instant already exists.
   */
  add(h: NewHandoff, now: number): Promise<string | null>;
  get(id: string): Promise<HandoffRecord | null>;
  /** The schedule's hand-offs, newest first. */
  ofSchedule(scheduleId: string, limit: number): Promise<HandoffRecord[]>;
  anyDue(now: number): Promise<boolean>;
  /** Leases up to `limit` hand-offs at work (`calling`, `raised`) whose next look is due, by the database's clock. */
  claim(now: number, limit: number, lease: Lease): Promise<HandoffRecord[]>;
  /** Writes a look's decision and ends the lease; false when `owner` lost it or the state moved from `from` (a 1 came meanwhile). */
  finish(id: string, owner: string, from: HandoffState, step: HandoffStep): Promise<boolean>;
  /**
   * A 1 on one of its calls: `confirmed`, from `calling` or `raised`, whoever holds the lease.
   * Returns the hand-off as it was (its alert to resolve); null when it was no longer at work.
   */
  confirm(id: string, at: number): Promise<HandoffRecord | null>;
  release(owner: string): Promise<number>;
}

interface HandoffRow {
  id: string;
  account_id: string;
  schedule_id: string;
  schedule_name: string;
  time_zone: string;
  at: number;
  until_at: number | null;
  incoming_name: string | null;
  incoming_number: string;
  incoming_person: string | null;
  outgoing_name: string | null;
  outgoing_number: string | null;
  outgoing_person: string | null;
  state: HandoffState;
  tries: number;
  call_id: string | null;
  next_at: number;
  alert_id: string | null;
  confirmed_at: number | null;
  ended_reason: string | null;
  created_at: number;
}

const num = (v: number | null) => (v === null || v === undefined ? null : Number(v));

const toHandoff = (r: HandoffRow): HandoffRecord => ({
  id: r.id,
  accountId: r.account_id,
  scheduleId: r.schedule_id,
  scheduleName: r.schedule_name,
  timeZone: r.time_zone,
  at: Number(r.at),
  until: num(r.until_at),
  incoming: { name: r.incoming_name, number: r.incoming_number, person: r.incoming_person },
  outgoing: r.outgoing_number === null ? null : { name: r.outgoing_name, number: r.outgoing_number, person: r.outgoing_person },
  state: r.state,
  tries: Number(r.tries),
  callId: r.call_id,
  nextAt: Number(r.next_at),
  alertId: r.alert_id,
  confirmedAt: num(r.confirmed_at),
  endedReason: r.ended_reason,
  createdAt: Number(r.created_at),
});

const AT_WORK = "state IN ('calling','raised')";

export function createHandoffsStore(db: SqlConnection): HandoffsStore {
  const leases = leasedRows(db, { table: 'handoffs', key: 'id' });
  const due = `${AT_WORK} AND next_at <= ${leases.sql.now}`;
  const claimQuery = db.query(leases.sql.claim({ due, order: 'next_at, id' }));
  const finishQuery = db.query(
    leases.sql.finish({
      set: 'state = $state, tries = $tries, call_id = $call, next_at = $next, alert_id = $alert, ended_reason = $reason',
      where: 'state = $from',
    }),
  );
  return {
    async add(h, now) {
      const id = newId('hof', now);
      const inserted = await db
        .query(
          `INSERT INTO handoffs (id, account_id, schedule_id, schedule_name, time_zone, at, until_at, incoming_name, incoming_number, incoming_person,
                                 outgoing_name, outgoing_number, outgoing_person, state, tries, next_at, created_at)
           VALUES ($id, $account, $schedule, $name, $tz, $at, $until, $iname, $inumber, $iperson, $oname, $onumber, $operson, 'calling', 0, $now, $now)
           ON CONFLICT DO NOTHING RETURNING id`,
        )
        .get({
          id, account: h.accountId, schedule: h.scheduleId, name: h.scheduleName, tz: h.timeZone, at: h.at, until: h.until,
          iname: h.incoming.name, inumber: h.incoming.number, iperson: h.incoming.person,
          oname: h.outgoing?.name ?? null, onumber: h.outgoing?.number ?? null, operson: h.outgoing?.person ?? null, now,
        });
      if (!inserted) return null;
      await db
        .query(`UPDATE handoffs SET state = 'ended', ended_reason = 'superseded by the next hand-off' WHERE schedule_id = $schedule AND id <> $id AND at < $at AND ${AT_WORK}`)
        .run({ schedule: h.scheduleId, id, at: h.at });
      return id;
    },
    async get(id) {
      const row = (await db.query('SELECT * FROM handoffs WHERE id = $id').get({ id })) as HandoffRow | null;
      return row ? toHandoff(row) : null;
    },
    async ofSchedule(scheduleId, limit) {
      return ((await db.query('SELECT * FROM handoffs WHERE schedule_id = $s ORDER BY at DESC, id LIMIT $limit').all({ s: scheduleId, limit })) as HandoffRow[]).map(toHandoff);
    },
    async anyDue(now) {
      return (await db.query(`SELECT 1 AS due FROM handoffs WHERE ${due} LIMIT 1`).get({ now })) !== null;
    },
    async claim(now, limit, lease) {
      return ((await claimQuery.all(claimParams(now, limit, lease))) as HandoffRow[]).map(toHandoff);
    },
    async finish(id, owner, from, s) {
      const { changes } = await finishQuery.run({
        key: id, owner, from, state: s.state, tries: s.tries, call: s.callId, next: s.nextAt, alert: s.alertId, reason: s.endedReason,
      });
      return changes === 1;
    },
    async confirm(id, at) {
      const before = (await db.query(`SELECT * FROM handoffs WHERE id = $id AND ${AT_WORK}`).get({ id })) as HandoffRow | null;
      if (!before) return null;
      const { changes } = await db.query(`UPDATE handoffs SET state = 'confirmed', confirmed_at = $at WHERE id = $id AND ${AT_WORK}`).run({ id, at });
      return changes === 1 ? toHandoff(before) : null;
    },
    release: (owner) => leases.release(owner),
  };
}
