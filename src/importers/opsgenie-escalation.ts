import type { OgEscalation, OgRef, OgTeam } from './opsgenie-source';
import type { PlannedObject, PlannedPerson, PlannedPolicy, PlannedStep } from './plan';

/**
 * An Opsgenie escalation as a policy (docs/integrations.md "Moving from Opsgenie or PagerDuty"),
 * for opsgenie-plan.ts: the rules' delays, recipients and repeat, or a skip with why for each
 * rule that cannot be expressed.
 */

/** Opsgenie's time units (`delay.timeUnit`, a heartbeat's `intervalUnit`) in seconds. */
export const UNIT_S: Record<string, number> = { minutes: 60, hours: 3600, days: 86_400 };

export interface Lookups {
  personOf: (ref: OgRef) => PlannedPerson | undefined;
  teams: Map<string, OgTeam>;
  schedulesOf: Map<string, string[]>;
}

/**
 * An escalation's rules as steps: rules with the same delay are one step; Opsgenie counts each
 * delay from the alert's creation, so a step waits the next rule's delay minus its own, the
 * last one `repeat.waitInterval`; `repeat.count` N is N+1 rounds.
 */
export function escalationPolicy(e: OgEscalation, l: Lookups): { policy: PlannedPolicy; parts: PlannedObject[] } {
  const parts: PlannedObject[] = [];
  const notes: string[] = [];
  const byDelay = new Map<number, Omit<PlannedStep, 'wait_s'>>();
  e.rules.forEach((rule, i) => {
    const ruleName = `rule ${i + 1} (${rule.notifyType} ${rule.recipient.type} ${rule.recipient.name ?? rule.recipient.username ?? rule.recipient.id ?? ''}`.trim() + ')';
    const skip = (why: string) => parts.push({ kind: 'rule', action: 'skip', name: ruleName, of: e.name, source_id: `${e.id}/${i}`, why });
    if (rule.condition !== 'if-not-acked') {
      skip(`${rule.condition}: an acknowledgement ends the escalation here, so a rule that goes on until the alert is closed cannot be kept`);
      return;
    }
    const delayMin = rule.delay.timeAmount * ((UNIT_S[rule.delay.timeUnit ?? 'minutes'] ?? 60) / 60);
    const step = byDelay.get(delayMin) ?? { people: [], numbers: [], schedules: [] };
    const r = rule.recipient;
    const addPerson = (p: PlannedPerson | undefined, who: string) => {
      if (!p) return `${who} is not a user of the account`;
      if (p.phones.length === 0) return `${p.name} has no voice number numbers.accept allows`;
      if (!step.people.includes(p.name)) step.people.push(p.name);
      for (const n of p.phones) if (!step.numbers.includes(n)) step.numbers.push(n);
      return null;
    };
    let why: string | null = null;
    if (r.type === 'user') why = addPerson(l.personOf(r), r.username ?? r.id ?? '?');
    else if (r.type === 'schedule') {
      const names = r.id ? l.schedulesOf.get(r.id) : undefined;
      if (rule.notifyType === 'next' || rule.notifyType === 'previous') why = `notify the ${rule.notifyType} on-call person: a step here calls who is on call now`;
      else if (!names) why = `schedule ${r.name ?? r.id} was not imported`;
      else for (const n of names) if (!step.schedules.includes(n)) step.schedules.push(n);
    } else if (r.type === 'team') {
      const team = r.id ? l.teams.get(r.id) : undefined;
      const members = team?.members ?? [];
      if (members.length === 0) why = `team ${r.name ?? r.id} has no members`;
      else if (rule.notifyType === 'random') why = 'random: one member chosen at random cannot be expressed here';
      else if (rule.notifyType === 'default') why = `team ${team!.name}'s default: its own routing rules decide, which are not imported`;
      else {
        const chosen = rule.notifyType === 'admins' ? members.filter((m) => m.role === 'admin') : rule.notifyType === 'users' ? members.filter((m) => m.role !== 'admin') : members;
        if (chosen.length === 0) why = `team ${team!.name} has no ${rule.notifyType}`;
        for (const m of chosen) why = why ?? addPerson(l.personOf({ type: 'user', id: m.user.id, username: m.user.username }), m.user.username);
      }
    } else why = `recipient type ${r.type} cannot be called`;
    if (why) {
      skip(why);
      return;
    }
    byDelay.set(delayMin, step);
  });
  const delays = [...byDelay.keys()].sort((a, b) => a - b);
  const repeat = e.repeat && (e.repeat.count ?? 0) > 0 ? e.repeat : null;
  const steps: PlannedStep[] = delays.map((d, i) => ({
    ...byDelay.get(d)!,
    wait_s: i + 1 < delays.length ? (delays[i + 1]! - d) * 60 : (repeat?.waitInterval ?? 0) * 60,
  }));
  if (delays[0]) notes.push(`the first rule waits ${delays[0]} min at Opsgenie; here the first step calls at once`);
  const rounds = repeat ? repeat.count! + 1 : 1;
  const base = { kind: 'policy' as const, name: e.name, source_id: e.id, steps, rounds };
  if (steps.length === 0) return { policy: { ...base, action: 'skip', why: 'no rule could be imported (each is listed with why)' }, parts };
  if (steps.length > 10 || rounds > 10 || steps.some((s) => s.numbers.length > 10 || s.schedules.length > 10)) {
    return { policy: { ...base, action: 'skip', why: 'more than 10 steps, rounds, numbers or schedules in a step: the most a policy here has' }, parts };
  }
  return { policy: { ...base, action: 'create', ...(notes.length ? { notes } : {}) }, parts };
}
