import * as z from 'zod';
import { objectName } from '../names';
import type { Clock } from '../clock';
import { normalizePhoneNumber } from '../phone';
import { peopleById } from '../people';
import { claimUse, whoUses, type OverrideRecord, type ScheduleRecord, type Store, type Tables, type UsedBy } from '../store';
import { compileLayers, isIanaTimeZone, resolveParticipant, validateLayers, type LayersInput } from './layers';
import { onCallAt, shiftsBetween, type OnCall, type ScheduleRules, type Shift } from './timeline';

/** What a person gives for a schedule (CLI, panel); `layers` is the parsed JSON. */
export interface ScheduleInput {
  name: string;
  timeZone: string;
  layers: unknown;
}

export interface OverrideInput {
  /** ISO 8601 instants with a zone or offset (a bare local time is refused: ambiguous). */
  from: string;
  to: string;
  /** Exactly one of `number` and `person` (a person of the account, by name or id). */
  number?: string | null;
  person?: string | null;
  name?: string | null;
}

type Refusal =
  | { ok: false; code: 'invalid_schedule' | 'invalid_override'; problem: string }
  | { ok: false; code: 'schedule_name_taken' | 'schedule_not_found' | 'account_not_found' };
export type ScheduleResult = { ok: true; schedule: ScheduleRecord } | Refusal;
/** A delete refused: the policies whose steps name the schedule (src/store/usage-of.ts). */
export type ScheduleInUse = { ok: false; code: 'schedule_in_use'; usedBy: UsedBy[] };
export type OverrideResult = { ok: true; override: OverrideRecord } | Refusal;
export type OnCallResult = { ok: true; oncall: OnCall } | Refusal;

/** Spaces allowed, like policies' and heartbeats' names: the one rule in src/names.ts. */
const scheduleName = objectName;
/** Longest override: a year (a longer one is a layer). */
const MAX_OVERRIDE_MS = 366 * 86_400_000;

/** An instant written in ISO 8601 with its zone (Z or an offset); null when not one. */
export function parseInstant(s: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i.test(s.trim())) return null;
  const ms = Date.parse(s.trim());
  return Number.isFinite(ms) ? ms : null;
}

/**
 * The rules of a schedule with its overrides still running after `after`, people as they are
 * now (their name, their first phone): a change to a person holds from the next look.
 */
export async function rulesOf(t: Pick<Tables, 'schedules' | 'people'>, s: ScheduleRecord, after: number): Promise<ScheduleRules> {
  const overrides = await t.schedules.overrides(s.id, after);
  const people = await peopleById(t, s.accountId);
  return {
    timeZone: s.timeZone,
    layers: compileLayers(s.layers, people),
    overrides: overrides.map((o) => {
      if (o.personId === null) return { from: o.startsAt, to: o.endsAt, name: o.name, number: o.phoneNumber, person: null };
      const who = resolveParticipant({ person: o.personId }, people);
      return { from: o.startsAt, to: o.endsAt, name: who.name, number: who.number, person: who.person };
    }),
  };
}

/**
 * Layers' `{"person": NAME}` participants as the person's id, in the caller's transaction;
 * an unknown one refuses the schedule, naming it (docs/on-call.md "People").
 */
async function peopleInLayers(tx: Tables, accountId: string, layers: LayersInput): Promise<{ ok: true; layers: LayersInput } | { ok: false; problem: string }> {
  const out: LayersInput = [];
  for (const [i, l] of layers.entries()) {
    const participants = [];
    for (const [j, p] of l.participants.entries()) {
      if (!('person' in p)) {
        participants.push(p);
        continue;
      }
      const person = await tx.people.find(accountId, p.person);
      if (!person) return { ok: false, problem: `layers.${i}.participants.${j}.person: unknown person: ${p.person}` };
      participants.push({ person: person.id });
    }
    out.push({ ...l, participants });
  }
  return { ok: true, layers: out };
}

/**
 * On-call schedules of an account (docs/on-call.md "On-call schedules"): the rules live here once,
 * for the CLI, the HTTP API and the panel.
 */
export interface SchedulesService {
  create(accountId: string, input: ScheduleInput): Promise<ScheduleResult>;
  /** Refused (schedule_in_use) while a policy's step names it. */
  remove(accountId: string, idOrName: string): Promise<ScheduleResult | ScheduleInUse>;
  /** The schedule and who uses it now (the panel's delete page asks before it deletes); null: no such schedule. */
  usersOf(accountId: string, idOrName: string): Promise<{ schedule: ScheduleRecord; usedBy: UsedBy[] } | null>;
  addOverride(accountId: string, idOrName: string, input: OverrideInput): Promise<OverrideResult>;
  /** Who is on call at `at` (default: now). */
  oncall(accountId: string, idOrName: string, at?: number): Promise<OnCallResult>;
  /** The shifts overlapping [from, to). */
  shifts(schedule: ScheduleRecord, from: number, to: number): Promise<Shift[]>;
  /** The panel's view of an account's schedules (null: every account's): who is on call now, the next `days` days, the overrides to come. */
  views(accountId: string | null, days: number): Promise<ScheduleView[]>;
}

export interface ScheduleView {
  schedule: ScheduleRecord;
  now: OnCall;
  shifts: Shift[];
  overrides: OverrideRecord[];
}

const schedulesLock = (accountId: string) => `schedules/${accountId}`;

export function createSchedulesService({ store, clock }: { store: Store; clock: Clock }): SchedulesService {
  return {
    create: (accountId, input) =>
      store.transaction(async (tx): Promise<ScheduleResult> => {
        const name = scheduleName.safeParse(input.name);
        if (!name.success) return { ok: false, code: 'invalid_schedule', problem: `name: ${name.error.issues[0]!.message}` };
        if (!isIanaTimeZone(input.timeZone)) return { ok: false, code: 'invalid_schedule', problem: `time_zone: not an IANA time zone: ${input.timeZone}` };
        const layers = validateLayers(input.layers);
        if (!layers.ok) return { ok: false, code: 'invalid_schedule', problem: layers.problem };
        await tx.serializeOn(schedulesLock(accountId));
        if (!(await tx.accounts.get(accountId))) return { ok: false, code: 'account_not_found' };
        if (await tx.schedules.find(accountId, name.data)) return { ok: false, code: 'schedule_name_taken' };
        // Before reading the people it names: a person deleted meanwhile waits for this (usage-of.ts).
        await claimUse(tx, accountId, 'person');
        const named = await peopleInLayers(tx, accountId, layers.layers);
        if (!named.ok) return { ok: false, code: 'invalid_schedule', problem: named.problem };
        const now = clock();
        const first = onCallAt({ timeZone: input.timeZone, layers: compileLayers(named.layers, await peopleById(tx, accountId)), overrides: [] }, now);
        const schedule = await tx.schedules.create(
          { accountId, name: name.data, timeZone: input.timeZone, layers: named.layers, watchedName: first.name, watchedNumber: first.number, watchAt: first.until ?? now + 86_400_000 },
          now,
        );
        return { ok: true, schedule };
      }),
    remove: (accountId, idOrName) =>
      store.transaction(async (tx): Promise<ScheduleResult | ScheduleInUse> => {
        await tx.serializeOn(schedulesLock(accountId));
        const s = await tx.schedules.find(accountId, idOrName);
        if (!s) return { ok: false, code: 'schedule_not_found' };
        const usedBy = await whoUses(tx, accountId, { kind: 'schedule', id: s.id, name: s.name });
        if (usedBy.length > 0) return { ok: false, code: 'schedule_in_use', usedBy };
        await tx.schedules.delete(s.id);
        return { ok: true, schedule: s };
      }),
    usersOf: (accountId, idOrName) =>
      store.transaction(async (tx) => {
        const schedule = await tx.schedules.find(accountId, idOrName);
        return schedule ? { schedule, usedBy: await whoUses(tx, accountId, { kind: 'schedule', id: schedule.id, name: schedule.name }) } : null;
      }),
    addOverride: (accountId, idOrName, input) =>
      store.transaction(async (tx): Promise<OverrideResult> => {
        const from = parseInstant(input.from);
        const to = parseInstant(input.to);
        if (from === null) return { ok: false, code: 'invalid_override', problem: `--from: not an ISO 8601 instant with a zone: ${input.from}` };
        if (to === null) return { ok: false, code: 'invalid_override', problem: `--to: not an ISO 8601 instant with a zone: ${input.to}` };
        if (to <= from) return { ok: false, code: 'invalid_override', problem: '--to must be after --from' };
        if (to - from > MAX_OVERRIDE_MS) return { ok: false, code: 'invalid_override', problem: 'an override lasts at most 366 days' };
        const givenNumber = input.number?.trim() || null;
        const givenPerson = input.person?.trim() || null;
        if ((givenNumber === null) === (givenPerson === null)) return { ok: false, code: 'invalid_override', problem: 'give exactly one of --number and --person' };
        const number = givenNumber === null ? '' : normalizePhoneNumber(givenNumber);
        if (number === null) return { ok: false, code: 'invalid_override', problem: `invalid phone number: ${givenNumber}` };
        const name = input.name?.trim() || null;
        if (name && name.length > 80) return { ok: false, code: 'invalid_override', problem: 'name: at most 80 characters' };
        const s = await tx.schedules.find(accountId, idOrName);
        if (!s) return { ok: false, code: 'schedule_not_found' };
        let personId: string | null = null;
        if (givenPerson !== null) {
          await claimUse(tx, accountId, 'person');
          const person = await tx.people.find(accountId, givenPerson);
          if (!person) return { ok: false, code: 'invalid_override', problem: `--person: unknown person: ${givenPerson}` };
          personId = person.id;
        }
        const override = await tx.schedules.addOverride({ scheduleId: s.id, startsAt: from, endsAt: to, name: personId ? null : name, phoneNumber: number, personId }, clock());
        // The on-call person may change at its start (or now): the watch looks again then.
        await tx.schedules.watchNoLaterThan(s.id, Math.max(from, clock()));
        return { ok: true, override };
      }),
    async oncall(accountId, idOrName, at) {
      const when = at ?? clock();
      const s = await store.schedules.find(accountId, idOrName);
      if (!s) return { ok: false, code: 'schedule_not_found' };
      return { ok: true, oncall: onCallAt(await rulesOf(store, s, when), when) };
    },
    async shifts(schedule, from, to) {
      return shiftsBetween(await rulesOf(store, schedule, from - 35 * 86_400_000), from, to);
    },
    async views(accountId, days) {
      const now = clock();
      const list = accountId === null ? await store.schedules.listAll(100) : await store.schedules.list(accountId);
      return Promise.all(
        list.map(async (schedule) => {
          const rules = await rulesOf(store, schedule, now - 35 * 86_400_000);
          return {
            schedule,
            now: onCallAt(rules, now),
            shifts: shiftsBetween(rules, now, now + days * 86_400_000),
            overrides: await store.schedules.overrides(schedule.id, now),
          };
        }),
      );
    },
  };
}
