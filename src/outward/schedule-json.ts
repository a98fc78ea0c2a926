import type { OverrideRecord, ScheduleRecord } from '../store';
import { iso } from './iso';

/** A schedule as the CLI (--json) and the API show it (docs/on-call.md "On-call schedules"). */
export function scheduleJson(s: ScheduleRecord, icsUrl: string) {
  return {
    id: s.id,
    account_id: s.accountId,
    name: s.name,
    time_zone: s.timeZone,
    layers: s.layers,
    // docs/on-call.md "Hand-off calls": whoever comes on call is called at each hand-off.
    handoff_call: s.handoffCall,
    ics_url: icsUrl,
    created_at: iso(s.createdAt),
    updated_at: iso(s.updatedAt),
  };
}

/** An override of a person (`--person`) has `person` (their id) and `number` null: their phones are read when it is called. */
export function overrideJson(o: OverrideRecord) {
  const who = o.personId ? { name: o.name, number: null, person: o.personId } : { name: o.name, number: o.phoneNumber };
  return { id: o.id, schedule_id: o.scheduleId, from: iso(o.startsAt), to: iso(o.endsAt), ...who, created_at: iso(o.createdAt) };
}

/**
 * `schedule oncall --json` and GET /api/schedules/{name}/oncall: `name` is the participant's;
 * for a person (docs/on-call.md "People") their name, their first phone and `person`, their id.
 */
export function oncallJson(o: { name: string | null; number: string | null; person?: string | null; until: number | null }) {
  return { name: o.name, number: o.number, ...(o.person ? { person: o.person } : {}), until: iso(o.until) };
}

/** `schedule show --json`: the schedule and its overrides still to come. Fields may be added, never renamed. */
export function scheduleWithOverridesJson(s: ScheduleRecord, icsUrl: string, overrides: OverrideRecord[]) {
  return { ...scheduleJson(s, icsUrl), overrides: overrides.map(overrideJson) };
}

/** `schedule delete --json`: the schedule as it was. Fields may be added, never renamed. */
export function scheduleDeletedJson(s: ScheduleRecord, icsUrl: string) {
  return { ...scheduleJson(s, icsUrl), deleted: true };
}
