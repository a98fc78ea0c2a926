import type { Clock } from '../clock';
import type { LoopSpec } from '../engine';
import type { Store } from '../store';
import { COVERAGE_DAYS } from './coverage';
import { readCoverage } from './coverage-read';

/** How often the gauges are computed again: a gap or an unverified person matters days ahead, not seconds. */
export const COVERAGE_GAUGES_EVERY_MS = 60_000;
/** Schedules looked at per tick, at most (series per account and schedule: more would flood Prometheus anyway). */
const MAX_SCHEDULES = 5_000;

/** One series' values: `schedule` is the schedule's name (unique in its account). */
export interface CoverageReading {
  account: string;
  schedule: string;
  unverifiedPeople: number;
  gapSeconds: number;
}

/**
 * voice_alert_oncall_unverified_people and voice_alert_oncall_gap_seconds (docs/on-call.md
 * "Coverage"): every schedule's next 14 days, computed by an engine loop once a minute and
 * kept here, so that a scrape only reads the last result: /metrics stays within its 100 ms
 * (docs/high-availability.md "High availability") however many schedules there are. Each
 * appliance on one PostgreSQL computes the same values from the same rows; nothing is
 * claimed, nothing written.
 */
export interface CoverageGauges extends LoopSpec {
  /** The last tick's readings (none before the first tick). */
  readings(): readonly CoverageReading[];
}

export function createCoverageGauges(d: { store: Store; clock: Clock }): CoverageGauges {
  let last: CoverageReading[] = [];
  return {
    name: 'coverage-gauges',
    everyMs: COVERAGE_GAUGES_EVERY_MS,
    async tick() {
      const from = d.clock();
      const read = await readCoverage(d.store, await d.store.schedules.listAll(MAX_SCHEDULES), from, from + COVERAGE_DAYS * 86_400_000);
      last = read.map((c) => ({ account: c.schedule.accountId, schedule: c.schedule.name, unverifiedPeople: c.unverified.length, gapSeconds: Math.round(c.gapMs / 1000) }));
      return last.length;
    },
    readings: () => last,
  };
}
