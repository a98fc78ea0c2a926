import { newId, randomToken } from '../ids';
import { claimParams, leasedRows, type Lease } from './lease';
import type { SqlConnection } from './sql/connection';
import { dialectOf } from './sql/dialect';

/**
 * A layer as kept, JSON the store does not interpret: the schedules service validates it
 * before it is stored (src/schedules/layers.ts).
 */
export interface StoredLayer {
  /** A name and number as given, or a person by id (`{"person":"per_…"}`), resolved at call time (src/people/refs.ts). */
  participants: StoredParticipant[];
  shift: string;
  start: string;
  restrictions?: { days: string[]; from: string; to: string }[];
}

export type StoredParticipant = { name: string; number: string } | { person: string };

/** An on-call schedule (docs/on-call.md "On-call schedules"). Validation is the service's (src/schedules/service.ts). */
export interface ScheduleRecord {
  id: string;
  accountId: string;
  name: string;
  timeZone: string;
  layers: StoredLayer[];
  /** The secret part of the schedule's calendar feed URL. */
  icsToken: string;
  createdAt: number;
  updatedAt: number;
  /** Who was on call when the watch last looked (oncall.changed), and when it looks next. */
  watchedName: string | null;
  watchedNumber: string | null;
  watchAt: number;
  /** Whoever comes on call is called at each hand-off and asked to press 1 (docs/on-call.md "Hand-off calls"). */
  handoffCall: boolean;
}

export interface OverrideRecord {
  id: string;
  scheduleId: string;
  startsAt: number;
  endsAt: number;
  name: string | null;
  /** Stored number; '' when the override names a person. */
  phoneNumber: string;
  /** The person put on call (`--person`), whose first phone is called then; null: the number. */
  personId: string | null;
  createdAt: number;
}

interface ScheduleRow {
  id: string;
  account_id: string;
  name: string;
  time_zone: string;
  layers: string;
  ics_token: string;
  created_at: number;
  updated_at: number;
  watched_name: string | null;
  watched_number: string | null;
  watch_at: number;
  handoff_call?: number | null;
}

interface OverrideRow {
  id: string;
  schedule_id: string;
  starts_at: number;
  ends_at: number;
  name: string | null;
  phone_number: string;
  person_id: string | null;
  created_at: number;
}

const toSchedule = (r: ScheduleRow): ScheduleRecord => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  timeZone: r.time_zone,
  layers: JSON.parse(r.layers) as StoredLayer[],
  icsToken: r.ics_token,
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
  watchedName: r.watched_name,
  watchedNumber: r.watched_number,
  watchAt: Number(r.watch_at),
  handoffCall: Number(r.handoff_call ?? 0) === 1,
});

const toOverride = (r: OverrideRow): OverrideRecord => ({
  id: r.id,
  scheduleId: r.schedule_id,
  startsAt: Number(r.starts_at),
  endsAt: Number(r.ends_at),
  name: r.name,
  phoneNumber: r.phone_number,
  personId: r.person_id ?? null,
  createdAt: Number(r.created_at),
});

export interface NewSchedule {
  accountId: string;
  name: string;
  timeZone: string;
  layers: StoredLayer[];
  watchedName: string | null;
  watchedNumber: string | null;
  watchAt: number;
  handoffCall?: boolean;
}

export interface SchedulesStore {
  create(s: NewSchedule, now: number): Promise<ScheduleRecord>;
  get(id: string): Promise<ScheduleRecord | null>;
  /** By id or by name, within the account: another account's schedule is never found. */
  find(accountId: string, idOrName: string): Promise<ScheduleRecord | null>;
  findByIcsToken(token: string): Promise<ScheduleRecord | null>;
  list(accountId: string): Promise<ScheduleRecord[]>;
  /** Every account's schedules (the administrator's overview), by account then name. */
  listAll(limit: number): Promise<ScheduleRecord[]>;
  /** Deletes the schedule and its overrides. */
  delete(id: string): Promise<boolean>;
  /** Replaces name, zone and layers in place: the id, the feed's token and the overrides stay. */
  update(id: string, s: Pick<NewSchedule, 'name' | 'timeZone' | 'layers'> & { handoffCall: boolean }, now: number): Promise<ScheduleRecord | null>;
  /** Deletes one override of the schedule; false when the schedule has no such override. */
  removeOverride(scheduleId: string, overrideId: string): Promise<OverrideRecord | null>;
  addOverride(o: Omit<OverrideRecord, 'id' | 'createdAt'>, now: number): Promise<OverrideRecord>;
  /** The schedule's overrides that end after `after`, in the order they were added. */
  overrides(scheduleId: string, after: number): Promise<OverrideRecord[]>;
  /** Asks the watch to look at the schedule again at `at` at the latest. */
  watchNoLaterThan(id: string, at: number): Promise<void>;
  /** Whether any schedule's watch time has come by the database's clock (a plain read before claiming). */
  anyWatchDue(now: number): Promise<boolean>;
  /**
   * Leases up to `limit` schedules whose watch time has come (and that nobody else holds a
   * lease on), both by the database's clock (lease.ts), to `lease.owner`: an appliance whose
   * clock runs ahead claims no hand-off early. Inside a transaction; on PostgreSQL rows
   * another appliance is claiming are passed over.
   */
  claimWatch(now: number, limit: number, lease: Lease): Promise<ScheduleRecord[]>;
  /**
   * Records what the watch saw and when to look next, and ends the lease; false when the
   * lease is no longer `owner`'s (it ran out and another appliance took the row).
   */
  finishWatch(id: string, owner: string, seen: { name: string | null; number: string | null; nextAt: number }): Promise<boolean>;
}

export function createSchedulesStore(db: SqlConnection): SchedulesStore {
  const sql = dialectOf(db.dialect);
  const leases = leasedRows(db, { table: 'schedules', key: 'id', until: 'watch_lease_until', owner: 'watch_lease_owner' });
  const watchDue = `watch_at <= ${leases.sql.now}`;
  const claimQuery = db.query(leases.sql.claim({ due: watchDue, order: 'watch_at' }));
  const finishQuery = db.query(leases.sql.finish({ set: 'watched_name = $name, watched_number = $number, watch_at = $next' }));
  return {
    async create(s, now) {
      const id = newId('sch', now);
      const icsToken = randomToken(32);
      await db
        .query(
          `INSERT INTO schedules (id, account_id, name, time_zone, layers, ics_token, created_at, updated_at, watched_name, watched_number, watch_at, handoff_call)
           VALUES ($id, $account, $name, $tz, $layers, $token, $now, $now, $wname, $wnumber, $watchAt, $handoff)`,
        )
        .run({
          id, account: s.accountId, name: s.name, tz: s.timeZone, layers: JSON.stringify(s.layers), token: icsToken, now,
          wname: s.watchedName, wnumber: s.watchedNumber, watchAt: s.watchAt, handoff: s.handoffCall ? 1 : 0,
        });
      return { id, accountId: s.accountId, name: s.name, timeZone: s.timeZone, layers: s.layers, icsToken, createdAt: now, updatedAt: now, watchedName: s.watchedName, watchedNumber: s.watchedNumber, watchAt: s.watchAt, handoffCall: s.handoffCall ?? false };
    },
    async get(id) {
      const row = (await db.query('SELECT * FROM schedules WHERE id = $id').get({ id })) as ScheduleRow | null;
      return row ? toSchedule(row) : null;
    },
    async find(accountId, idOrName) {
      const row = (await db
        .query('SELECT * FROM schedules WHERE account_id = $a AND (id = $v OR name = $v) LIMIT 1')
        .get({ a: accountId, v: idOrName })) as ScheduleRow | null;
      return row ? toSchedule(row) : null;
    },
    async findByIcsToken(token) {
      const row = (await db.query('SELECT * FROM schedules WHERE ics_token = $t').get({ t: token })) as ScheduleRow | null;
      return row ? toSchedule(row) : null;
    },
    async list(accountId) {
      return ((await db.query('SELECT * FROM schedules WHERE account_id = $a ORDER BY name').all({ a: accountId })) as ScheduleRow[]).map(toSchedule);
    },
    async listAll(limit) {
      return ((await db.query('SELECT * FROM schedules ORDER BY account_id, name LIMIT $limit').all({ limit })) as ScheduleRow[]).map(toSchedule);
    },
    async delete(id) {
      await db.query('DELETE FROM schedule_overrides WHERE schedule_id = $id').run({ id });
      return (await db.query('DELETE FROM schedules WHERE id = $id').run({ id })).changes === 1;
    },
    async update(id, u, now) {
      const { changes } = await db
        .query('UPDATE schedules SET name = $name, time_zone = $tz, layers = $layers, handoff_call = $handoff, updated_at = $now WHERE id = $id')
        .run({ id, name: u.name, tz: u.timeZone, layers: JSON.stringify(u.layers), handoff: u.handoffCall ? 1 : 0, now });
      if (changes !== 1) return null;
      const row = (await db.query('SELECT * FROM schedules WHERE id = $id').get({ id })) as ScheduleRow | null;
      return row ? toSchedule(row) : null;
    },
    async removeOverride(scheduleId, overrideId) {
      const row = (await db
        .query('SELECT * FROM schedule_overrides WHERE schedule_id = $s AND id = $id')
        .get({ s: scheduleId, id: overrideId })) as OverrideRow | null;
      if (!row) return null;
      await db.query('DELETE FROM schedule_overrides WHERE schedule_id = $s AND id = $id').run({ s: scheduleId, id: overrideId });
      return toOverride(row);
    },
    async addOverride(o, now) {
      const id = newId('ovr', now);
      await db
        .query(
          `INSERT INTO schedule_overrides (id, schedule_id, starts_at, ends_at, name, phone_number, person_id, created_at)
           VALUES ($id, $schedule, $starts, $ends, $name, $number, $person, $now)`,
        )
        .run({ id, schedule: o.scheduleId, starts: o.startsAt, ends: o.endsAt, name: o.name, number: o.phoneNumber, person: o.personId, now });
      return { ...o, id, createdAt: now };
    },
    async overrides(scheduleId, after) {
      return ((await db
        .query('SELECT * FROM schedule_overrides WHERE schedule_id = $s AND ends_at > $after ORDER BY created_at, id')
        .all({ s: scheduleId, after })) as OverrideRow[]).map(toOverride);
    },
    async watchNoLaterThan(id, at) {
      await db.query(`UPDATE schedules SET watch_at = ${sql.least('watch_at', '$at')} WHERE id = $id`).run({ id, at });
    },
    async anyWatchDue(now) {
      return (await db.query(`SELECT 1 AS due FROM schedules WHERE ${watchDue} LIMIT 1`).get({ now })) !== null;
    },
    async claimWatch(now, limit, lease) {
      return ((await claimQuery.all(claimParams(now, limit, lease))) as ScheduleRow[]).map(toSchedule);
    },
    async finishWatch(id, owner, seen) {
      const { changes } = await finishQuery.run({ key: id, owner, name: seen.name, number: seen.number, next: seen.nextAt });
      return changes === 1;
    },
  };
}
