import type { PersonPhone, ScheduleRecord } from '../store';
import { iso } from './iso';

/** The coverage of one schedule as src/schedules/coverage.ts computes it (typed here so outward imports only the store's records). */
export interface ScheduleCoverageView {
  schedule: ScheduleRecord;
  shifts: readonly { start: number; end: number; name: string | null; number: string | null; person: string | null; phones: readonly PersonPhone[] }[];
  gaps: readonly { start: number; end: number }[];
  gapMs: number;
  unverified: readonly { person: string; name: string; phones: readonly PersonPhone[]; from: number }[];
}

const phonesJson = (phones: readonly PersonPhone[]) => phones.map((p) => ({ number: p.number, verified_at: iso(p.verifiedAt) }));

/**
 * `voice-alert coverage ACCOUNT --json` and GET /api/coverage (docs/on-call.md "Coverage"):
 * for each schedule, its shifts in the window (each with its whole extent, the person's id or
 * null for a bare number, and each phone's verification), the gaps with nobody on call
 * (clipped to the window) and the people on call with no verified phone. Fields may be
 * added, never renamed.
 */
export function coverageJson(accountId: string, c: { from: number; to: number; schedules: readonly ScheduleCoverageView[] }, days: number) {
  return {
    account_id: accountId,
    from: iso(c.from),
    to: iso(c.to),
    days,
    schedules: c.schedules.map((s) => ({
      id: s.schedule.id,
      name: s.schedule.name,
      time_zone: s.schedule.timeZone,
      shifts: s.shifts.map((x) => ({ start: iso(x.start), end: iso(x.end), name: x.name, number: x.number, person: x.person, phones: phonesJson(x.phones) })),
      gaps: s.gaps.map((g) => ({ start: iso(g.start), end: iso(g.end), seconds: Math.round((g.end - g.start) / 1000) })),
      gap_seconds: Math.round(s.gapMs / 1000),
      unverified: s.unverified.map((u) => ({ person: u.person, name: u.name, phones: phonesJson(u.phones), from: iso(u.from) })),
    })),
  };
}
