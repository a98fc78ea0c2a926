import type { PagerDutyExport, PdLayer, PdRestriction } from './pagerduty-source';
import {
  acceptedNumber,
  dailyRestriction,
  isoInstant,
  localDateTime,
  weekRestrictions,
  type ImportPlan,
  type PlanContext,
  type PlannedLayer,
  type PlannedObject,
  type PlannedPerson,
  type PlannedRestriction,
  type PlannedSchedule,
  type PlannedStep,
} from './plan';

/**
 * What PagerDuty's objects become here (docs/integrations.md "Moving from Opsgenie or
 * PagerDuty"), a pure translation of what pagerduty-source.ts read. PagerDuty's layers already
 * have one person at a time (a higher layer covers a lower one), as ours do: a schedule stays
 * one schedule.
 */

const minutesOfDay = (hhmmss: string) => Number(hhmmss.slice(0, 2)) * 60 + Number(hhmmss.slice(3, 5));

/** `daily_restriction` and `weekly_restriction` (`start_day_of_week` 1 = Monday, ISO 8601). */
export function pagerDutyRestrictions(rs: readonly PdRestriction[] | undefined): PlannedRestriction[] | undefined {
  if (!rs || rs.length === 0) return undefined;
  const out: PlannedRestriction[] = [];
  const weekly: { start: number; minutes: number }[] = [];
  for (const r of rs) {
    const from = minutesOfDay(r.start_time_of_day);
    const minutes = Math.round(r.duration_seconds / 60);
    if (r.type === 'daily_restriction') out.push(dailyRestriction(from, minutes));
    else weekly.push({ start: (r.start_day_of_week - 1) * 1440 + from, minutes });
  }
  return [...out, ...weekRestrictions(weekly)];
}

/** A turn in whole days (calendar days in the zone) or whole hours; anything else cannot be a shift here. */
function shiftOf(seconds: number): string | null {
  if (seconds > 0 && seconds % 86_400 === 0) return `${seconds / 86_400}d`;
  if (seconds > 0 && seconds % 3600 === 0) return `${seconds / 3600}h`;
  return null;
}

export function planPagerDuty(src: PagerDutyExport, ctx: PlanContext): ImportPlan {
  const objects: PlannedObject[] = [];
  const people = new Map<string, PlannedPerson>();
  for (const u of src.users) {
    const p: PlannedPerson = {
      kind: 'person',
      action: 'create',
      name: u.name,
      source_id: u.id,
      phones: [],
      sms: [],
      emails: [u.email],
      language: u.locale ? u.locale.slice(0, 2).toLowerCase() : null,
      time_zone: u.time_zone ?? null,
      skipped_numbers: [],
    };
    for (const c of u.contact_methods ?? []) {
      if (c.type === 'email_contact_method') {
        if (!p.emails.includes(c.address)) p.emails.push(c.address);
        continue;
      }
      if (c.type !== 'phone_contact_method' && c.type !== 'sms_contact_method') continue;
      const written = `+${c.country_code ?? ''}${c.address}`;
      const n = acceptedNumber(written, ctx.numberForms);
      if (!n.ok) p.skipped_numbers.push({ number: written, why: n.why });
      else {
        const list = c.type === 'phone_contact_method' ? p.phones : p.sms;
        if (!list.includes(n.number)) list.push(n.number);
      }
    }
    people.set(u.id, p);
    objects.push(p);
  }

  const scheduleNames = new Map<string, string>();
  for (const s of src.schedules) {
    const layers: PlannedLayer[] = [];
    // PagerDuty lists the top layer (the one that covers the others) first; ours is the last.
    for (const l of [...(s.schedule_layers ?? [])].reverse()) {
      const why = layerProblem(l, people, ctx.now);
      if (why) {
        objects.push({ kind: 'layer', action: 'skip', name: l.name ?? l.id, of: s.name, source_id: l.id, why });
        continue;
      }
      const restrictions = pagerDutyRestrictions(l.restrictions);
      layers.push({
        source: l.id,
        participants: l.users.map(({ user }) => {
          const p = people.get(user.id)!;
          return { name: p.name, number: p.phones[0]!, person_source_id: p.source_id };
        }),
        shift: shiftOf(l.rotation_turn_length_seconds)!,
        start: localDateTime(l.rotation_virtual_start, s.time_zone),
        ...(restrictions ? { restrictions } : {}),
      });
    }
    if (layers.length === 0) {
      objects.push({ kind: 'schedule', action: 'skip', name: s.name, source_id: s.id, time_zone: s.time_zone, layers: [], overrides: [], why: 'no layer could be imported (each is listed with why)' });
      continue;
    }
    const schedule: PlannedSchedule = { kind: 'schedule', action: 'create', name: s.name, source_id: s.id, time_zone: s.time_zone, layers, overrides: [] };
    for (const o of s.overrides) {
      if (Date.parse(o.end) <= ctx.now) continue;
      const p = people.get(o.user.id);
      if (!p || p.phones.length === 0) {
        objects.push({ kind: 'override', action: 'skip', name: o.id, of: s.name, source_id: o.id, why: p ? `${p.name} has no voice number numbers.accept allows` : `${o.user.summary ?? o.user.id} is not a user of the account` });
        continue;
      }
      schedule.overrides.push({ from: isoInstant(o.start), to: isoInstant(o.end), name: p.name, number: p.phones[0]!, person_source_id: p.source_id });
    }
    scheduleNames.set(s.id, s.name);
    objects.push(schedule);
  }

  // Escalation policies: each rule is a step; `escalation_delay_in_minutes` is that rule's own wait; `num_loops` N is N+1 rounds.
  for (const e of src.escalationPolicies) {
    const steps: PlannedStep[] = [];
    e.escalation_rules.forEach((rule, i) => {
      const step: PlannedStep = { people: [], numbers: [], schedules: [], wait_s: rule.escalation_delay_in_minutes * 60 };
      const problems: string[] = [];
      for (const t of rule.targets) {
        if (t.type === 'user_reference' || t.type === 'user') {
          const p = people.get(t.id);
          if (!p || p.phones.length === 0) problems.push(p ? `${p.name} has no voice number numbers.accept allows` : `user ${t.summary ?? t.id} is not in the account`);
          else {
            step.people.push(p.name);
            for (const n of p.phones) if (!step.numbers.includes(n)) step.numbers.push(n);
          }
        } else if (t.type === 'schedule_reference' || t.type === 'schedule') {
          const name = scheduleNames.get(t.id);
          if (!name) problems.push(`schedule ${t.summary ?? t.id} was not imported`);
          else step.schedules.push(name);
        } else problems.push(`target type ${t.type} cannot be called`);
      }
      for (const why of problems) objects.push({ kind: 'rule', action: 'skip', name: `rule ${i + 1}`, of: e.name, source_id: rule.id ?? `${e.id}/${i}`, why });
      if (step.numbers.length + step.schedules.length > 0) steps.push(step);
    });
    const rounds = (e.num_loops ?? 0) + 1;
    const base = { kind: 'policy' as const, name: e.name, source_id: e.id, steps, rounds };
    if (steps.length === 0) objects.push({ ...base, action: 'skip', why: 'no rule could be imported (each is listed with why)' });
    else if (steps.length > 10 || rounds > 10 || steps.some((s) => s.numbers.length > 10 || s.schedules.length > 10)) {
      objects.push({ ...base, action: 'skip', why: 'more than 10 steps, rounds, numbers or schedules in a step: the most a policy here has' });
    } else objects.push({ ...base, action: 'create' });
  }

  // Services' integrations: Events API v2 keeps working on /v2/enqueue with the account's webhook key.
  const integrations: ImportPlan['integrations'] = [];
  for (const svc of src.services) {
    for (const i of svc.integrations ?? []) {
      const name = `${svc.name}: ${i.name ?? i.summary ?? i.id}`;
      const key = "the account's webhook key (voice-alert keys list ACCOUNT)";
      if (i.type === 'events_api_v2_inbound_integration') integrations.push({ name, type: i.type, url: `${ctx.applianceUrl}/v2/enqueue`, key });
      else integrations.push({ name, type: i.type, url: null, key, why: 'only Events API v2 is taken here: point the tool at Events API v2 (/v2/enqueue)' });
    }
  }
  return { source: 'pagerduty', account: ctx.account, objects, integrations };
}

/** Why a layer cannot be a layer here, or null. */
function layerProblem(l: PdLayer, people: Map<string, PlannedPerson>, now: number): string | null {
  if (l.end && Date.parse(l.end) <= now) return `ended ${isoInstant(l.end)}`;
  if (!shiftOf(l.rotation_turn_length_seconds)) return `a turn of ${l.rotation_turn_length_seconds} s is not whole hours or days`;
  if (l.users.length === 0) return 'no users';
  for (const { user } of l.users) {
    const p = people.get(user.id);
    if (!p) return `${user.summary ?? user.id} is not a user of the account`;
    if (p.phones.length === 0) return `${p.name} has no voice number numbers.accept allows`;
  }
  return null;
}
