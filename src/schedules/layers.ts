import { Temporal } from 'temporal-polyfill';
import * as z from 'zod';
import { normalizePhoneNumber } from '../phone';
import type { Person, StoredLayer, StoredParticipant } from '../store';

/**
 * A schedule's layers as a person writes them (docs/on-call.md "On-call schedules"): participants
 * take turns, each for `shift` (`Nd` calendar days, `Nh` real hours), from `start`, a local
 * date-time in the schedule's time zone; `restrictions` limit the layer to local weekday/time
 * ranges. Parsed once here into the form the rotation arithmetic (rotation.ts) works on.
 */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const LOCAL_TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;

const numberParticipant = z.object({
  name: z.string().trim().min(1).max(80),
  number: z.string().trim().min(1).max(30),
});
/** A person of the account, by name or id (docs/on-call.md "People"); the service keeps the id. */
const personParticipant = z.strictObject({ person: z.string().trim().min(1).max(80) });
const participant = z.union([personParticipant, numberParticipant]);

const restriction = z.object({
  days: z.array(z.enum(WEEKDAYS)).min(1).max(7),
  from: z.string().regex(LOCAL_TIME, 'HH:MM'),
  /** Equal to `from`: the whole day; earlier than `from`: the range runs past midnight. */
  to: z.string().regex(LOCAL_TIME, 'HH:MM'),
});

const layer = z.object({
  participants: z.array(participant).min(1).max(50),
  shift: z.string().regex(/^[1-9]\d{0,3}[dh]$/, 'Nd or Nh, e.g. 7d or 12h'),
  start: z
    .string()
    .regex(LOCAL_DATE_TIME, 'a local date-time, e.g. 2026-11-02T09:00')
    .refine((s) => {
      try {
        Temporal.PlainDateTime.from(s);
        return true;
      } catch {
        return false;
      }
    }, 'not a valid date-time'),
  restrictions: z.array(restriction).max(20).optional(),
});

/** What the store keeps and the API shows: the layers as given, numbers in their stored form. */
export const layersInput = z.array(layer).min(1).max(10);
export type LayersInput = z.output<typeof layersInput>;

/** A participant as the arithmetic sees it: a person resolved to their name and first phone (null: none). */
export interface Participant {
  name: string;
  number: string | null;
  /** The person's id; null: a `{"name","number"}` participant. */
  person: string | null;
}

export interface Restriction {
  days: readonly Weekday[];
  /** Minutes after local midnight. */
  fromMin: number;
  toMin: number;
}

export interface Layer {
  participants: readonly Participant[];
  shift: { unit: 'd' | 'h'; n: number };
  start: Temporal.PlainDateTime;
  restrictions: readonly Restriction[];
}

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

export type LayersResult = { ok: true; layers: LayersInput } | { ok: false; problem: string };

/** Validates layers (a parsed JSON value) and puts each number in its stored form. */
export function validateLayers(value: unknown): LayersResult {
  const parsed = layersInput.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, problem: `layers.${issue.path.join('.')}: ${issue.message}`.replace(/\.:/, ':') };
  }
  const layers: LayersInput = [];
  for (const [i, l] of parsed.data.entries()) {
    const participants: StoredParticipant[] = [];
    for (const [j, p] of l.participants.entries()) {
      if ('person' in p) {
        participants.push({ person: p.person });
        continue;
      }
      const number = normalizePhoneNumber(p.number);
      if (!number) return { ok: false, problem: `layers.${i}.participants.${j}.number: invalid phone number: ${p.number}` };
      participants.push({ name: p.name, number });
    }
    layers.push({ ...l, participants });
  }
  return { ok: true, layers };
}

/**
 * A stored participant as of now: a person by their name and first phone as they are at
 * this moment (a person deleted meanwhile reaches nobody).
 */
export function resolveParticipant(p: StoredParticipant, people: ReadonlyMap<string, Person>): Participant {
  if (!('person' in p)) return { name: p.name, number: p.number, person: null };
  const person = people.get(p.person);
  return person ? { name: person.name, number: person.phones[0]?.number ?? null, person: person.id } : { name: p.person, number: null, person: p.person };
}

/** A participant in one line, for the CLI and the panel: `Ayşe 5321111111`, a person as `+Ayşe`. */
export function describeParticipant(p: StoredParticipant, people: ReadonlyMap<string, Person>): string {
  if (!('person' in p)) return `${p.name} ${p.number}`;
  return `+${people.get(p.person)?.name ?? p.person}`;
}

/** The arithmetic's form of layers already validated (as stored), people resolved from `people`. */
export function compileLayers(layers: readonly StoredLayer[], people: ReadonlyMap<string, Person> = new Map()): Layer[] {
  return layers.map((l) => ({
    participants: l.participants.map((p) => resolveParticipant(p, people)),
    shift: { unit: l.shift.endsWith('d') ? 'd' : 'h', n: Number(l.shift.slice(0, -1)) },
    start: Temporal.PlainDateTime.from(l.start),
    // Stored only after validateLayers: its days are weekday names.
    restrictions: (l.restrictions ?? []).map((r) => ({ days: r.days as Weekday[], fromMin: minutes(r.from), toMin: minutes(r.to) })),
  }));
}

/**
 * An IANA zone name (`Europe/Istanbul`, `UTC`), not a fixed offset: a schedule follows its
 * zone's DST changes, which an offset cannot.
 */
export function isIanaTimeZone(tz: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-]*(\/[A-Za-z0-9_+\-]+)*$/.test(tz)) return false;
  try {
    Temporal.Now.zonedDateTimeISO(tz);
    return true;
  } catch {
    return false;
  }
}

/**
 * A local date-time typed in the panel (`2026-12-24T18:00`, an `<input type=datetime-local>`)
 * as an ISO instant in the schedule's zone; null when it is not one. A local time the
 * clocks skip is taken as just after the gap (Temporal's "compatible").
 */
export function localToIso(local: string, tz: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(local.trim())) return null;
  try {
    return Temporal.PlainDateTime.from(local.trim()).toZonedDateTime(tz, { disambiguation: 'compatible' }).toInstant().toString();
  } catch {
    return null;
  }
}
