import { peopleById } from '../people';
import type { OverrideRecord, Person, ScheduleRecord, Tables } from '../store';
import { compileLayers, resolveParticipant } from './layers';
import type { ScheduleRules } from './timeline';

/**
 * The rules of a schedule with its overrides still running after `after`, people as they are
 * now (their name, their first phone): a change to a person holds from the next look.
 */
export async function rulesOf(t: Pick<Tables, 'schedules' | 'people'>, s: ScheduleRecord, after: number): Promise<ScheduleRules> {
  return rulesWith(s, await t.schedules.overrides(s.id, after), await peopleById(t, s.accountId));
}

/** rulesOf with its reads given: a caller looking at many schedules of one account reads its people once (coverage.ts). */
export function rulesWith(s: ScheduleRecord, overrides: readonly OverrideRecord[], people: ReadonlyMap<string, Person>): ScheduleRules {
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
