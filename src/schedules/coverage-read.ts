import { peopleById } from '../people';
import type { Person, ScheduleRecord, Tables } from '../store';
import { coverageOf, type ScheduleCoverage } from './coverage';
import { rulesWith } from './rules';

/** How far back overrides are read: one still running at the window's start counts (as the panel's views). */
const OVERRIDES_BACK_MS = 35 * 86_400_000;

export interface ScheduleCoverageRead extends ScheduleCoverage {
  schedule: ScheduleRecord;
}

/**
 * The coverage of each schedule over [from, to): one read of an account's people for all of
 * its schedules, one of each schedule's overrides (the CLI, the API and the panel for one
 * account; the coverage gauges for every account).
 */
export async function readCoverage(t: Pick<Tables, 'schedules' | 'people'>, schedules: readonly ScheduleRecord[], from: number, to: number): Promise<ScheduleCoverageRead[]> {
  const peopleOf = new Map<string, Map<string, Person>>();
  const out: ScheduleCoverageRead[] = [];
  for (const schedule of schedules) {
    let people = peopleOf.get(schedule.accountId);
    if (!people) peopleOf.set(schedule.accountId, (people = await peopleById(t, schedule.accountId)));
    const rules = rulesWith(schedule, await t.schedules.overrides(schedule.id, from - OVERRIDES_BACK_MS), people);
    out.push({ schedule, ...coverageOf(rules, people, from, to) });
  }
  return out;
}
