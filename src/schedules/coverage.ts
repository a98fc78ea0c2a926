import type { Person, PersonPhone } from '../store';
import { segments, type ScheduleRules } from './timeline';

/**
 * Coverage of one schedule over a window (docs/on-call.md "Coverage"): who is on call, with
 * each of their phones' verification; when nobody is; and who is on call with no phone a
 * verification call has proved. Pure: the rules (rulesOf, people resolved) and the people
 * are read by the caller (coverage-read.ts).
 *
 * Built on `segments` rather than `shiftsBetween`: that one leaves out a person with no phone
 * (their number is null), who is on call all the same and must show as unverified, not as a gap.
 */
export interface CoverageShift {
  /** The shift's whole extent (a shift running at the window's start keeps its real start), as the panel's schedule view and the calendar feed show it. */
  start: number;
  end: number;
  name: string | null;
  /** The number called first; null: a person with no phone. */
  number: string | null;
  /** The person's id; null: a bare `{"name","number"}` participant or an override by number. */
  person: string | null;
  /**
   * A person's phones in the order they are called, each with its verification; a bare
   * number is its one phone, never verified (only a person's phones are: docs/on-call.md
   * "Coverage").
   */
  phones: PersonPhone[];
}

/** A stretch of the window with nobody on call: no layer applies, no override, or a rota's hole. Clipped to the window. */
export interface CoverageGap {
  start: number;
  end: number;
}

/** A person on call in the window none of whose phones is verified (a person with no phone too). */
export interface UnverifiedPerson {
  person: string;
  name: string;
  phones: PersonPhone[];
  /** The first instant in the window they are on call. */
  from: number;
}

export interface ScheduleCoverage {
  shifts: CoverageShift[];
  gaps: CoverageGap[];
  /** The gaps' total length, in milliseconds. */
  gapMs: number;
  unverified: UnverifiedPerson[];
}

/** How far either side of the window a shift's real extent is looked for (as shiftsBetween). */
const EXTENT_MS = 35 * 86_400_000;

export function coverageOf(rules: ScheduleRules, people: ReadonlyMap<string, Person>, from: number, to: number): ScheduleCoverage {
  const shifts: CoverageShift[] = [];
  const gaps: CoverageGap[] = [];
  const unverified = new Map<string, UnverifiedPerson>();
  for (const s of segments(rules, from - EXTENT_MS, to + EXTENT_MS)) {
    if (s.end <= from || s.start >= to) continue;
    if (s.person === null && s.number === null) {
      gaps.push({ start: Math.max(s.start, from), end: Math.min(s.end, to) });
      continue;
    }
    const person = s.person === null ? null : people.get(s.person);
    const phones = s.person === null ? [{ number: s.number!, verifiedAt: null }] : (person?.phones ?? []);
    shifts.push({ start: s.start, end: s.end, name: s.name, number: s.number, person: s.person, phones });
    if (s.person !== null && !phones.some((p) => p.verifiedAt !== null) && !unverified.has(s.person)) {
      unverified.set(s.person, { person: s.person, name: person?.name ?? s.name ?? s.person, phones, from: Math.max(s.start, from) });
    }
  }
  return { shifts, gaps, gapMs: gaps.reduce((n, g) => n + (g.end - g.start), 0), unverified: [...unverified.values()] };
}

/** The window `coverage` looks at by default, and the longest it takes (the calendar feed reaches 60 days). */
export const COVERAGE_DAYS = 14;
export const MAX_COVERAGE_DAYS = 90;

/** `--days` or `?days=`: a whole number of days, 1 to MAX_COVERAGE_DAYS; null when it is not one. */
export function coverageDays(value: string): number | null {
  if (!/^\d{1,3}$/.test(value.trim())) return null;
  const n = Number(value.trim());
  return n >= 1 && n <= MAX_COVERAGE_DAYS ? n : null;
}
