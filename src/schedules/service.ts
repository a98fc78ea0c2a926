import * as z from 'zod';
import { objectName } from '../names';
import type { Clock } from '../clock';
import { normalizePhoneNumber } from '../phone';
import { peopleById } from '../people';
import { claimUse, whoUses, type OverrideRecord, type ScheduleRecord, type Store, type Tables, type UsedBy } from '../store';
import { readCoverage, type ScheduleCoverageRead } from './coverage-read';
import { compileLayers, isIanaTimeZone, validateLayers, type LayersInput } from './layers';
import { rulesOf } from './rules';
import { onCallAt, shiftsBetween, type OnCall, type ScheduleRules, type Shift } from './timeline';

/** What a person gives for a schedule (CLI, panel); `layers` is the parsed JSON. */
export interface ScheduleInput {
  name: string;
  timeZone: string;
  layers: unknown;
  /** `--handoff-call`: call whoever comes on call at each hand-off (docs/on-call.md "Hand-off calls"); default false. */
  handoffCall?: boolean;
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
  | { ok: false; code: 'schedule_name_taken' | 'schedule_not_found' | 'override_not_found' | 'account_not_found' };
export type ScheduleResult = { ok: true; schedule: ScheduleRecord } | Refusal;
/** A delete refused: the policies whose steps name the schedule (src/store/usage-of.ts). */
export type ScheduleInUse = { ok: false; code: 'schedule_in_use'; usedBy: UsedBy[] };
export type OverrideResult = { ok: true; override: OverrideRecord } | Refusal;
export type OnCallResult = { ok: true; oncall: OnCall } | Refusal;
/** What a schedule would be, before it is saved (the panel's preview). */
export type PreviewResult = { ok: true; now: OnCall; shifts: Shift[] } | Refusal;
/** An edit: what is not given stays as it is. */
export type ScheduleChange = Partial<ScheduleInput>;

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
 * Layers' `{"person": NAME}` participants as the person's id, in the caller's transaction;
 * an unknown one refuses the schedule, naming it (docs/on-call.md "People").
 */
async function peopleInLayers(tx: Pick<Tables, 'people'>, accountId: string, layers: LayersInput): Promise<{ ok: true; layers: LayersInput } | { ok: false; problem: string }> {
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
  /** The account's schedule by id or name; null: none (another account's is none). */
  find(accountId: string, idOrName: string): Promise<ScheduleRecord | null>;
  /** The schedule and who uses it now (the panel's delete page asks before it deletes); null: no such schedule. */
  usersOf(accountId: string, idOrName: string): Promise<{ schedule: ScheduleRecord; usedBy: UsedBy[] } | null>;
  /**
   * Changes name, zone or layers in place: the id, the calendar feed's URL and the overrides
   * stay (docs/on-call.md "On-call schedules"); the on-call watch looks again at once. A new
   * name is refused (schedule_in_use) while a policy's step names the schedule: that step
   * would call nobody.
   */
  update(accountId: string, idOrName: string, change: ScheduleChange): Promise<ScheduleResult | ScheduleInUse>;
  /**
   * Who would be on call now and over the next `days` days with these layers, nothing saved;
   * with `idOrName`, that schedule's overrides count too (an edit's preview).
   */
  preview(accountId: string, input: Omit<ScheduleInput, 'name'>, days: number, idOrName?: string): Promise<PreviewResult>;
  addOverride(accountId: string, idOrName: string, input: OverrideInput): Promise<OverrideResult>;
  /** Removes one override (by its id, `ovr_…`) of the schedule. */
  removeOverride(accountId: string, idOrName: string, overrideId: string): Promise<OverrideResult>;
  /** Who is on call at `at` (default: now). */
  oncall(accountId: string, idOrName: string, at?: number): Promise<OnCallResult>;
  /** The shifts overlapping [from, to). */
  shifts(schedule: ScheduleRecord, from: number, to: number): Promise<Shift[]>;
  /** The panel's view of an account's schedules (null: every account's): who is on call now, the next `days` days, the overrides to come. */
  views(accountId: string | null, days: number): Promise<ScheduleView[]>;
  /**
   * Each schedule of the account over the next `days` days (docs/on-call.md "Coverage"): its
   * shifts with each person's phones and their verification, the gaps with nobody on call,
   * the people on call with no verified phone.
   */
  coverage(accountId: string, days: number): Promise<AccountCoverage>;
}

export interface AccountCoverage {
  from: number;
  to: number;
  schedules: ScheduleCoverageRead[];
}

export interface ScheduleView {
  schedule: ScheduleRecord;
  now: OnCall;
  shifts: Shift[];
  overrides: OverrideRecord[];
}

const schedulesLock = (accountId: string) => `schedules/${accountId}`;

type Checked = { ok: true; name: string; timeZone: string; layers: LayersInput } | Extract<Refusal, { problem: string }>;

/** The one check of what a person gives, for create, update and preview. */
function check(input: ScheduleInput): Checked {
  const name = scheduleName.safeParse(input.name);
  if (!name.success) return { ok: false, code: 'invalid_schedule', problem: `name: ${name.error.issues[0]!.message}` };
  if (!isIanaTimeZone(input.timeZone)) return { ok: false, code: 'invalid_schedule', problem: `time_zone: not an IANA time zone: ${input.timeZone}` };
  const layers = validateLayers(input.layers);
  if (!layers.ok) return { ok: false, code: 'invalid_schedule', problem: layers.problem };
  return { ok: true, name: name.data, timeZone: input.timeZone, layers: layers.layers };
}

export function createSchedulesService({ store, clock }: { store: Store; clock: Clock }): SchedulesService {
  return {
    create: (accountId, input) =>
      store.transaction(async (tx): Promise<ScheduleResult> => {
        const c = check(input);
        if (!c.ok) return c;
        await tx.serializeOn(schedulesLock(accountId));
        if (!(await tx.accounts.get(accountId))) return { ok: false, code: 'account_not_found' };
        if (await tx.schedules.find(accountId, c.name)) return { ok: false, code: 'schedule_name_taken' };
        // Before reading the people it names: a person deleted meanwhile waits for this (usage-of.ts).
        await claimUse(tx, accountId, 'person');
        const named = await peopleInLayers(tx, accountId, c.layers);
        if (!named.ok) return { ok: false, code: 'invalid_schedule', problem: named.problem };
        const now = clock();
        const first = onCallAt({ timeZone: c.timeZone, layers: compileLayers(named.layers, await peopleById(tx, accountId)), overrides: [] }, now);
        const schedule = await tx.schedules.create(
          { accountId, name: c.name, timeZone: c.timeZone, layers: named.layers, watchedName: first.name, watchedNumber: first.number, watchAt: first.until ?? now + 86_400_000, handoffCall: input.handoffCall ?? false },
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
    update: (accountId, idOrName, change) =>
      store.transaction(async (tx): Promise<ScheduleResult | ScheduleInUse> => {
        await tx.serializeOn(schedulesLock(accountId));
        const s = await tx.schedules.find(accountId, idOrName);
        if (!s) return { ok: false, code: 'schedule_not_found' };
        const c = check({ name: change.name ?? s.name, timeZone: change.timeZone ?? s.timeZone, layers: change.layers ?? s.layers });
        if (!c.ok) return c;
        if (c.name !== s.name) {
          const taken = await tx.schedules.find(accountId, c.name);
          if (taken && taken.id !== s.id) return { ok: false, code: 'schedule_name_taken' };
          // docs/on-call.md "Nothing silently calls nobody": steps keep the name they were written with.
          const usedBy = await whoUses(tx, accountId, { kind: 'schedule', id: s.id, name: s.name });
          if (usedBy.length > 0) return { ok: false, code: 'schedule_in_use', usedBy };
        }
        // As create: people named by name are kept by id, and an unknown one refuses the change.
        await claimUse(tx, accountId, 'person');
        const named = await peopleInLayers(tx, accountId, c.layers);
        if (!named.ok) return { ok: false, code: 'invalid_schedule', problem: named.problem };
        const schedule = await tx.schedules.update(s.id, { name: c.name, timeZone: c.timeZone, layers: named.layers, handoffCall: change.handoffCall ?? s.handoffCall }, clock());
        if (!schedule) return { ok: false, code: 'schedule_not_found' };
        // New layers may put someone else on call now: the watch looks (and says oncall.changed).
        await tx.schedules.watchNoLaterThan(s.id, clock());
        return { ok: true, schedule };
      }),
    async preview(accountId, input, days, idOrName) {
      const c = check({ name: 'preview', ...input });
      if (!c.ok) return c;
      const now = clock();
      let overrides: ScheduleRules['overrides'] = [];
      if (idOrName !== undefined) {
        const s = await store.schedules.find(accountId, idOrName);
        if (!s) return { ok: false, code: 'schedule_not_found' };
        overrides = (await rulesOf(store, s, now - 35 * 86_400_000)).overrides;
      }
      const named = await peopleInLayers(store, accountId, c.layers);
      if (!named.ok) return { ok: false, code: 'invalid_schedule', problem: named.problem };
      const rules: ScheduleRules = { timeZone: c.timeZone, layers: compileLayers(named.layers, await peopleById(store, accountId)), overrides };
      return { ok: true, now: onCallAt(rules, now), shifts: shiftsBetween(rules, now, now + days * 86_400_000) };
    },
    removeOverride: (accountId, idOrName, overrideId) =>
      store.transaction(async (tx): Promise<OverrideResult> => {
        const s = await tx.schedules.find(accountId, idOrName);
        if (!s) return { ok: false, code: 'schedule_not_found' };
        const override = await tx.schedules.removeOverride(s.id, overrideId.trim());
        if (!override) return { ok: false, code: 'override_not_found' };
        // The person it put on call may be off call now: the watch looks again.
        await tx.schedules.watchNoLaterThan(s.id, clock());
        return { ok: true, override };
      }),
    find: (accountId, idOrName) => store.schedules.find(accountId, idOrName),
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
    async coverage(accountId, days) {
      const from = clock();
      const to = from + days * 86_400_000;
      return { from, to, schedules: await readCoverage(store, await store.schedules.list(accountId), from, to) };
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
