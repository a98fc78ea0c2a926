import { Temporal } from 'temporal-polyfill';
import { normalizePhoneNumber, type NumberForm } from '../phone';
import { WEEKDAYS, type Weekday } from '../schedules';

/**
 * An import's plan (docs/integrations.md "Moving from Opsgenie or PagerDuty"): every object the
 * source has, what it becomes here and the action the apply step would take (`create`,
 * `update`, `unchanged`, `skip`, a skip always with `why`), in the JSON `voice-alert import …
 * --json` prints. Built by pure translations (opsgenie-plan.ts, pagerduty-plan.ts) from what
 * the sources gave; nothing here reads or writes the store.
 *
 * People are plain data (name, numbers, e-mail, language, time zone, the source's id): the
 * apply step creates them once the appliance has people (issue 45). Schedules name their
 * participants by that person and the number a layer dials today.
 */
export type Action = 'create' | 'update' | 'unchanged' | 'skip';

interface Planned {
  action: Action;
  /** Why, for a skip; else absent. */
  why?: string;
  name: string;
  /** The source's id (a user, a schedule and its rotation, an escalation …). */
  source_id: string;
  /** What is not exact and how (e.g. the first rule's delay), never silently. */
  notes?: string[];
}

export interface PlannedPerson extends Planned {
  kind: 'person';
  /** Numbers to call, in a form numbers.accept allows, in the source's order. */
  phones: string[];
  sms: string[];
  emails: string[];
  language: string | null;
  time_zone: string | null;
  /** Numbers of the source that no accepted form takes, each with why. */
  skipped_numbers: { number: string; why: string }[];
}

export interface PlannedParticipant {
  name: string;
  number: string;
  person_source_id: string;
}

export interface PlannedRestriction {
  days: Weekday[];
  from: string;
  to: string;
}

export interface PlannedLayer {
  /** The rotation or layer it comes from. */
  source: string;
  participants: PlannedParticipant[];
  /** `Nd` calendar days or `Nh` real hours (docs/on-call.md "On-call schedules"). */
  shift: string;
  /** A local date-time in the schedule's zone. */
  start: string;
  restrictions?: PlannedRestriction[];
}

export interface PlannedSchedule extends Planned {
  kind: 'schedule';
  time_zone: string;
  layers: PlannedLayer[];
  overrides: { from: string; to: string; name: string; number: string; person_source_id: string }[];
  /** An extra schedule `<schedule>-<rotation>`: the source schedule it was split from. */
  split_from?: string;
}

export interface PlannedStep {
  /** People called by their numbers (their names for the people step, once people exist). */
  people: string[];
  numbers: string[];
  schedules: string[];
  wait_s: number;
}

export interface PlannedPolicy extends Planned {
  kind: 'policy';
  steps: PlannedStep[];
  rounds: number;
}

export interface PlannedHeartbeat extends Planned {
  kind: 'heartbeat';
  interval_s: number;
  message: string | null;
  paused: boolean;
  /** The policy imported from the owner team's escalation; null: the account's fallback is called. */
  policy: string | null;
}

export interface PlannedWindow extends Planned {
  kind: 'window';
  start: string;
  end: string;
  match: string[];
}

/** A part of a source object that cannot be expressed (a rotation, a rule, an override …): always a skip. */
export interface PlannedPart extends Planned {
  kind: 'rotation' | 'layer' | 'rule' | 'override' | 'integration';
  /** The object it belongs to (schedule, policy …). */
  of: string;
}

export type PlannedObject = PlannedPerson | PlannedSchedule | PlannedPolicy | PlannedHeartbeat | PlannedWindow | PlannedPart;

export interface ImportPlan {
  source: 'opsgenie' | 'pagerduty';
  account: string;
  objects: PlannedObject[];
  /** The URL and key each tool should now use: listed apart, never with an action. */
  integrations: { name: string; type: string; url: string | null; key: string; why?: string }[];
}

/** What a translation needs besides the source's data. */
export interface PlanContext {
  account: string;
  /** numbers.accept. */
  numberForms: readonly NumberForm[];
  /** Now, for what has ended (rotations, overrides, maintenance). */
  now: number;
  /** This appliance's base URL, for the integrations' list. */
  applianceUrl: string;
}

/** A number as the source writes it (`+905321111111`), in a form numbers.accept allows, or why not. */
export function acceptedNumber(international: string, forms: readonly NumberForm[]): { ok: true; number: string } | { ok: false; why: string } {
  const n = normalizePhoneNumber(international, forms);
  return n ? { ok: true, number: n } : { ok: false, why: `${international} is not a form numbers.accept allows (${forms.join(', ')})` };
}

const hhmm = (min: number) => `${String(Math.floor(min / 60) % 24).padStart(2, '0')}:${String(min % 60).padStart(2, '0')}`;
export const WEEK_MIN = 7 * 1440;

/**
 * Ranges of the week (minutes from Monday 00:00, a length in minutes) as our restrictions: a
 * range is cut at each local midnight; a piece that ends at midnight is written `to` 00:00 (it
 * runs past midnight), a whole day `from` = `to`; pieces with the same hours share one
 * restriction. A week or more: every day, whole.
 */
export function weekRestrictions(ranges: readonly { start: number; minutes: number }[]): PlannedRestriction[] {
  const byHours = new Map<string, Set<Weekday>>();
  const add = (day: number, from: number, to: number) => {
    const k = `${hhmm(from)}-${hhmm(to)}`;
    if (!byHours.has(k)) byHours.set(k, new Set());
    byHours.get(k)!.add(WEEKDAYS[((day % 7) + 7) % 7]!);
  };
  for (const r of ranges) {
    if (r.minutes <= 0) continue;
    if (r.minutes >= WEEK_MIN) {
      for (let d = 0; d < 7; d++) add(d, 0, 0);
      continue;
    }
    for (let t = r.start, end = r.start + r.minutes; t < end; ) {
      const day = Math.floor(t / 1440);
      const segEnd = Math.min(end, (day + 1) * 1440);
      add(day, t - day * 1440, segEnd - day * 1440);
      t = segEnd;
    }
  }
  return [...byHours.entries()].map(([k, days]) => ({
    days: WEEKDAYS.filter((d) => days.has(d)),
    from: k.slice(0, 5),
    to: k.slice(6),
  }));
}

/** A daily range (every day, `from` for `minutes`) as one restriction; a whole day is `from` = `to`. */
export function dailyRestriction(fromMin: number, minutes: number): PlannedRestriction {
  return { days: [...WEEKDAYS], from: hhmm(fromMin), to: hhmm((fromMin + Math.min(minutes, 1440)) % 1440) };
}

/** The minutes of the week a layer's restrictions cover (none: all of it), as [start, end) pieces. */
export function coveredMinutes(restrictions: readonly PlannedRestriction[] | undefined): [number, number][] {
  if (!restrictions || restrictions.length === 0) return [[0, WEEK_MIN]];
  const out: [number, number][] = [];
  const min = (s: string) => Number(s.slice(0, 2)) * 60 + Number(s.slice(3, 5));
  for (const r of restrictions) {
    for (const d of r.days) {
      const start = WEEKDAYS.indexOf(d) * 1440 + min(r.from);
      const len = min(r.to) > min(r.from) ? min(r.to) - min(r.from) : min(r.to) - min(r.from) + 1440;
      const end = start + len;
      if (end <= WEEK_MIN) out.push([start, end]);
      else out.push([start, WEEK_MIN], [0, end - WEEK_MIN]);
    }
  }
  return out;
}

/** Whether two layers are ever in force at the same minute of the week. */
export function overlap(a: readonly PlannedRestriction[] | undefined, b: readonly PlannedRestriction[] | undefined): boolean {
  const x = coveredMinutes(a);
  const y = coveredMinutes(b);
  return x.some(([s1, e1]) => y.some(([s2, e2]) => s1 < e2 && s2 < e1));
}

/** An instant as a local date-time in `tz` (`2026-11-02T09:00`, seconds only when not zero). */
export function localDateTime(instant: string, tz: string): string {
  const t = Temporal.Instant.from(instant).toZonedDateTimeISO(tz).toPlainDateTime();
  const s = t.toString({ smallestUnit: 'second' });
  return s.endsWith(':00') ? s.slice(0, 16) : s;
}

/** An instant in ISO 8601 UTC, as the store and `--json` write times. */
export const isoInstant = (instant: string) => new Date(Temporal.Instant.from(instant).epochMilliseconds).toISOString();

/**
 * Rotations that never apply at the same time stay layers of one schedule; each that overlaps
 * one already kept goes to a schedule of its own, `<schedule>-<rotation>`, so the source's
 * "everyone on call in any rotation is called" still calls the same people at the same times:
 * every step naming the schedule names all of them.
 */
export function splitOverlapping<L extends { restrictions?: PlannedRestriction[] }>(layers: readonly { name: string; layer: L }[]): { main: L[]; extra: { name: string; layer: L }[] } {
  const main: L[] = [];
  const extra: { name: string; layer: L }[] = [];
  for (const l of layers) {
    if (main.some((m) => overlap(m.restrictions, l.layer.restrictions))) extra.push(l);
    else main.push(l.layer);
  }
  return { main, extra };
}

/** The plan's objects with their actions against what the account already has: a name taken by an object made here by hand is never touched. */
export function againstExisting(objects: PlannedObject[], existing: { schedules: string[]; policies: string[]; heartbeats: string[] }): PlannedObject[] {
  const taken: Record<string, string[]> = { schedule: existing.schedules, policy: existing.policies, heartbeat: existing.heartbeats };
  return objects.map((o) => {
    if (o.action === 'skip' || !(o.kind in taken) || !taken[o.kind]!.includes(o.name)) return o;
    return { ...o, action: 'skip', why: `a ${o.kind} named ${o.name} already exists here and was not imported: objects made by hand are never touched` };
  });
}
