import type { Layer } from './layers';
import { restrictionIntervals, type Interval } from './restrictions';
import { layerShifts, type LayerShift } from './rotation';

/**
 * Who is on call, instant by instant (docs/on-call.md "On-call schedules"): an override beats every
 * layer (of overlapping overrides, the one added last); else the highest layer (the last
 * given) that has a shift then and whose restrictions, if any, include that instant.
 */
export interface Override {
  from: number;
  to: number;
  name: string | null;
  /** null: a person with no phone. */
  number: string | null;
  /** The person put on call (`--person`); absent or null: the number. */
  person?: string | null;
}

export interface ScheduleRules {
  timeZone: string;
  layers: readonly Layer[];
  /** In the order they were added. */
  overrides: readonly Override[];
}

/** A stretch with one person on call (name and number null: nobody). */
export interface Segment {
  start: number;
  end: number;
  name: string | null;
  number: string | null;
  /** The person's id, when a person is on call (docs/on-call.md "People"). */
  person: string | null;
}

const DAY_MS = 86_400_000;

interface LayerView {
  shifts: LayerShift[];
  /** null: the layer has no restrictions and applies whenever it has a shift. */
  applies: Interval[] | null;
}

/** The item of a sorted, non-overlapping list that contains `at` (binary search). */
function covering<T extends { start: number; end: number }>(list: readonly T[], at: number): T | undefined {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const x = list[mid]!;
    if (at < x.start) hi = mid - 1;
    else if (at >= x.end) lo = mid + 1;
    else return x;
  }
  return undefined;
}

/** [from, to) cut where the on-call person changes; adjacent stretches always differ. */
export function segments(rules: ScheduleRules, from: number, to: number): Segment[] {
  const views: LayerView[] = rules.layers.map((l) => ({
    shifts: layerShifts(l, rules.timeZone, from, to),
    applies: l.restrictions.length ? restrictionIntervals(l.restrictions, rules.timeZone, from, to) : null,
  }));
  const cuts = new Set<number>([from]);
  const cut = (t: number) => {
    if (t > from && t < to) cuts.add(t);
  };
  for (const v of views) {
    for (const s of v.shifts) cut(s.start), cut(s.end);
    for (const i of v.applies ?? []) cut(i.start), cut(i.end);
  }
  for (const o of rules.overrides) cut(o.from), cut(o.to);
  const points = [...cuts].sort((a, b) => a - b);

  const out: Segment[] = [];
  for (const [i, start] of points.entries()) {
    const end = points[i + 1] ?? to;
    const who = whoAt(rules, views, start);
    const prev = out[out.length - 1];
    if (prev && prev.name === who.name && prev.number === who.number && prev.person === who.person) prev.end = end;
    else out.push({ start, end, ...who });
  }
  return out;
}

type Who = Pick<Segment, 'name' | 'number' | 'person'>;

function whoAt(rules: ScheduleRules, views: readonly LayerView[], at: number): Who {
  for (let i = rules.overrides.length - 1; i >= 0; i--) {
    const o = rules.overrides[i]!;
    if (o.from <= at && at < o.to) return { name: o.name, number: o.number, person: o.person ?? null };
  }
  for (let i = views.length - 1; i >= 0; i--) {
    const v = views[i]!;
    const shift = covering(v.shifts, at);
    if (!shift) continue;
    if (v.applies && !covering(v.applies, at)) continue;
    return { name: shift.participant.name, number: shift.participant.number, person: shift.participant.person };
  }
  return { name: null, number: null, person: null };
}

export interface OnCall {
  name: string | null;
  number: string | null;
  /** The person's id when a person is on call; absent: a `{"name","number"}` participant, or nobody. */
  person?: string;
  /** The next instant the on-call person changes; null: no change within a year. */
  until: number | null;
}

/**
 * How far ahead `until` is looked for: a month first (nearly every schedule changes within
 * it), then a year. Bounded so that a pathological schedule (many one-person hourly layers)
 * costs a look of tens of milliseconds, not seconds, on the event loop.
 */
const HORIZONS_DAYS = [35, 366];

const personOf = (s: Segment) => (s.person ? { person: s.person } : {});

/** Who is on call at `at`, and until when. */
export function onCallAt(rules: ScheduleRules, at: number): OnCall {
  let first: Segment | undefined;
  for (const days of HORIZONS_DAYS) {
    const segs = segments(rules, at, at + days * DAY_MS);
    first = segs[0]!;
    if (segs.length > 1) return { name: first.name, number: first.number, ...personOf(first), until: first.end };
  }
  return { name: first!.name, number: first!.number, ...personOf(first!), until: null };
}

/** A shift someone is on call for, as the panel and the calendar feed list them. */
export interface Shift {
  start: number;
  end: number;
  name: string | null;
  number: string;
  person: string | null;
}

/**
 * The shifts overlapping [from, to), each with its whole extent (a shift running at `from`
 * keeps its real start), nobody-stretches left out. Extents are looked for up to 35 days
 * either side.
 */
export function shiftsBetween(rules: ScheduleRules, from: number, to: number): Shift[] {
  return segments(rules, from - 35 * DAY_MS, to + 35 * DAY_MS)
    .filter((s) => s.number !== null && s.end > from && s.start < to)
    .map((s) => ({ start: s.start, end: s.end, name: s.name, number: s.number!, person: s.person }));
}
