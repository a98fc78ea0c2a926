import { escalationPolicy, UNIT_S } from './opsgenie-escalation';
import type { OgRef, OgRestriction, OgRotation, OgTeam, OpsgenieExport } from './opsgenie-source';
import {
  acceptedNumber,
  dailyRestriction,
  isoInstant,
  localDateTime,
  splitOverlapping,
  weekRestrictions,
  type ImportPlan,
  type PlanContext,
  type PlannedLayer,
  type PlannedObject,
  type PlannedPerson,
  type PlannedRestriction,
  type PlannedSchedule,
} from './plan';

/**
 * What Opsgenie's objects become here (docs/integrations.md "Moving from Opsgenie or PagerDuty"),
 * a pure translation of what opsgenie-source.ts read. Each rule cites the field of Opsgenie's
 * API it reads; what cannot be expressed is a `skip` with why, never an approximation.
 */

const DAY_INDEX: Record<string, number> = { monday: 0, tuesday: 1, wednesday: 2, thursday: 3, friday: 4, saturday: 5, sunday: 6 };

/** Opsgenie writes a phone contact `90-5321111111`: country code, dash, national number. */
export function opsgenieNumber(to: string): string {
  const m = /^\+?(\d{1,4})-(\d+)$/.exec(to.trim());
  return m ? `+${m[1]}${m[2]}` : to.trim();
}

/** `timeRestriction` of a rotation: `time-of-day` every day, or `weekday-and-time-of-day` ranges of the week. */
export function opsgenieRestrictions(r: OgRestriction | null | undefined): PlannedRestriction[] | undefined {
  if (!r) return undefined;
  if (r.type === 'time-of-day') {
    const from = r.restriction.startHour * 60 + r.restriction.startMin;
    const to = r.restriction.endHour * 60 + r.restriction.endMin;
    return [dailyRestriction(from, to > from ? to - from : to - from + 1440)];
  }
  return weekRestrictions(
    r.restrictions.map((x) => {
      const start = DAY_INDEX[x.startDay.toLowerCase()]! * 1440 + x.startHour * 60 + x.startMin;
      const end = DAY_INDEX[x.endDay.toLowerCase()]! * 1440 + x.endHour * 60 + x.endMin;
      // An end at or before the start wraps to the next week (Sunday 22:00 to Monday 06:00).
      return { start, minutes: end > start ? end - start : end - start + 7 * 1440 };
    }),
  );
}

/** A rotation's turn: `hourly`/`daily`/`weekly` times `length` (default 1). */
function shiftOf(r: OgRotation): string | null {
  const n = r.length ?? 1;
  if (r.type === 'hourly') return `${n}h`;
  if (r.type === 'daily') return `${n}d`;
  if (r.type === 'weekly') return `${n * 7}d`;
  return null;
}

export function planOpsgenie(src: OpsgenieExport, ctx: PlanContext): ImportPlan {
  const objects: PlannedObject[] = [];
  const people = new Map<string, PlannedPerson>();

  // Users and their contacts (User API, Contact API): voice → phones, sms → sms, email (and the username) → emails.
  for (const u of src.users) {
    const p: PlannedPerson = {
      kind: 'person',
      action: 'create',
      name: u.fullName || u.username,
      source_id: u.id,
      phones: [],
      sms: [],
      emails: [u.username],
      language: u.locale ? u.locale.slice(0, 2).toLowerCase() : null,
      time_zone: u.timeZone ?? null,
      skipped_numbers: [],
    };
    for (const c of u.contacts) {
      if (c.enabled === false || c.status?.enabled === false) continue;
      if (c.method === 'email') {
        if (!p.emails.includes(c.to)) p.emails.push(c.to);
        continue;
      }
      if (c.method !== 'voice' && c.method !== 'sms') continue;
      const n = acceptedNumber(opsgenieNumber(c.to), ctx.numberForms);
      if (!n.ok) p.skipped_numbers.push({ number: c.to, why: n.why });
      else {
        const list = c.method === 'voice' ? p.phones : p.sms;
        if (!list.includes(n.number)) list.push(n.number);
      }
    }
    people.set(u.id, p);
    objects.push(p);
  }
  const personOf = (ref: OgRef) => (ref.id ? people.get(ref.id) : [...people.values()].find((p) => p.emails[0] === ref.username));
  const teams = new Map<string, OgTeam>(src.teams.map((t) => [t.id, t]));

  // Schedules (Schedule API, expand=rotation): a layer per rotation; overlapping rotations split off.
  const schedulesOf = new Map<string, string[]>();
  const rotationHome = new Map<string, string>();
  for (const s of src.schedules) {
    if (s.enabled === false) {
      objects.push(skipSchedule(s.name, s.id, s.timezone, 'disabled in Opsgenie'));
      continue;
    }
    const layers: { name: string; layer: PlannedLayer & { rotationId: string } }[] = [];
    for (const r of s.rotations ?? []) {
      const skip = (why: string) => objects.push({ kind: 'rotation', action: 'skip', name: r.name, of: s.name, source_id: r.id, why });
      if (r.endDate && Date.parse(r.endDate) <= ctx.now) {
        skip(`ended ${isoInstant(r.endDate)}`);
        continue;
      }
      const shift = shiftOf(r);
      if (!shift) {
        skip(`rotation type ${r.type} is not hourly, daily or weekly`);
        continue;
      }
      const participants = [];
      let why: string | null = null;
      for (const ref of r.participants) {
        if (ref.type === 'none') why = 'a turn of nobody (participant "none"): a layer here always has someone on call';
        else if (ref.type === 'team') {
          const team = ref.id ? teams.get(ref.id) : undefined;
          why = !team || (team.members ?? []).length === 0
            ? `team ${ref.name ?? ref.id} has no members`
            : `team ${team.name} as a participant: Opsgenie notifies the team as a whole, a layer here calls one person a turn; name its members in the rotation`;
        } else if (ref.type === 'escalation') why = `escalation ${ref.name ?? ref.id} as a participant cannot be a turn of a layer`;
        else {
          const p = personOf(ref);
          if (!p) why = `participant ${ref.username ?? ref.id} is not a user of the account`;
          else if (p.phones.length === 0) why = `${p.name} has no voice number numbers.accept allows`;
          else participants.push({ name: p.name, number: p.phones[0]!, person_source_id: p.source_id });
        }
        if (why) break;
      }
      if (why) {
        skip(why);
        continue;
      }
      if (participants.length === 0) {
        skip('no participants');
        continue;
      }
      const restrictions = opsgenieRestrictions(r.timeRestriction);
      const layer = { source: r.id, rotationId: r.id, participants, shift, start: localDateTime(r.startDate, s.timezone), ...(restrictions ? { restrictions } : {}) };
      layers.push({ name: r.name, layer });
    }
    if (layers.length === 0) {
      objects.push(skipSchedule(s.name, s.id, s.timezone, 'no rotation could be imported (each is listed with why)'));
      continue;
    }
    const { main, extra } = splitOverlapping(layers);
    const names = [s.name, ...extra.map((e) => `${s.name}-${e.name}`)];
    schedulesOf.set(s.id, names);
    const made: PlannedSchedule[] = [
      { kind: 'schedule', action: 'create', name: s.name, source_id: s.id, time_zone: s.timezone, layers: main.map(strip), overrides: [] },
      ...extra.map((e, i): PlannedSchedule => ({
        kind: 'schedule',
        action: 'create',
        name: names[i + 1]!,
        source_id: `${s.id}/${e.layer.rotationId}`,
        time_zone: s.timezone,
        layers: [strip(e.layer)],
        overrides: [],
        split_from: s.name,
        notes: [`rotation ${e.name} is on call at the same time as another rotation of ${s.name}: Opsgenie calls both, so every step naming ${s.name} names this one too`],
      })),
    ];
    for (const m of main) rotationHome.set(m.rotationId, s.name);
    extra.forEach((e, i) => rotationHome.set(e.layer.rotationId, names[i + 1]!));
    // Overrides (Schedule Override API): on the schedules of the rotations they name, else on all of them.
    for (const o of s.overrides) {
      if (Date.parse(o.endDate) <= ctx.now) continue;
      const p = o.user.type === 'user' ? personOf(o.user) : undefined;
      const targets = o.rotations?.length ? made.filter((m) => o.rotations!.some((r) => rotationHome.get(r.id) === m.name)) : made;
      if (!p || p.phones.length === 0) {
        objects.push({ kind: 'override', action: 'skip', name: o.alias, of: s.name, source_id: o.alias, why: p ? `${p.name} has no voice number numbers.accept allows` : `override by ${o.user.type} ${o.user.name ?? o.user.id}: only a user can be an override here` });
        continue;
      }
      for (const t of targets) t.overrides.push({ from: isoInstant(o.startDate), to: isoInstant(o.endDate), name: p.name, number: p.phones[0]!, person_source_id: p.source_id });
    }
    objects.push(...made);
  }

  // Escalations (Escalation API) → policies.
  const policyOfTeam = new Map<string, string>();
  for (const e of src.escalations) {
    const { policy, parts } = escalationPolicy(e, { personOf, teams, schedulesOf });
    objects.push(...parts);
    objects.push(policy);
    if (policy.action !== 'skip' && e.ownerTeam && !policyOfTeam.has(e.ownerTeam.id)) policyOfTeam.set(e.ownerTeam.id, policy.name);
  }

  // Heartbeats (Heartbeat API): the same name; the owner team's escalation, else the fallback.
  for (const h of src.heartbeats) {
    const unit = UNIT_S[h.intervalUnit];
    const base = { kind: 'heartbeat' as const, name: h.name, source_id: h.name, message: h.alertMessage?.trim() || null, paused: !h.enabled };
    if (!unit || h.interval * unit > 31 * 86_400) {
      objects.push({ ...base, action: 'skip', interval_s: 0, policy: null, why: `interval ${h.interval} ${h.intervalUnit}: at most 31 days here` });
      continue;
    }
    const policy = h.ownerTeam ? (policyOfTeam.get(h.ownerTeam.id) ?? null) : null;
    const why = h.ownerTeam ? `no escalation of its owner team ${h.ownerTeam.name} was imported` : 'it has no owner team';
    objects.push({ ...base, action: 'create', interval_s: h.interval * unit, policy, ...(policy ? {} : { notes: [`${why}: the account's fallback is called`] }) });
  }

  // Maintenance (Maintenance API, non-expired): a window for all of the account's alerts, or a skip.
  const integrationIds = new Set(src.integrations.map((i) => i.id));
  for (const m of src.maintenance) {
    const name = m.description?.trim() || m.id;
    const skip = (why: string) => objects.push({ kind: 'window', action: 'skip', name, source_id: m.id, start: m.time.startDate ?? '', end: m.time.endDate ?? '', match: [], why });
    if (!m.time.endDate || !m.time.startDate) {
      skip(`${m.time.type}: a window here has an end`);
      continue;
    }
    const disabled = (m.rules ?? []).filter((r) => r.state === 'disabled');
    if (disabled.length === 0) {
      skip('no rule disables anything: it changes nothing');
      continue;
    }
    const all = disabled.every((r) => r.entity.type === 'integration') && [...integrationIds].every((id) => disabled.some((r) => r.entity.id === id));
    if (!all) {
      skip('limited to some integrations or policies: every alert here arrives by the account\'s one key, so no match expresses exactly that');
      continue;
    }
    objects.push({ kind: 'window', action: 'create', name, source_id: m.id, start: isoInstant(m.time.startDate), end: isoInstant(m.time.endDate), match: [] });
  }

  // Integrations (Integration API): where each tool should now send, with the account's webhook key.
  const integrations = src.integrations.map((i) => ({ name: i.name, type: i.type, url: `${ctx.applianceUrl}/v2/alerts`, key: 'the account\'s webhook key (voice-alert keys list ACCOUNT)' }));
  return { source: 'opsgenie', account: ctx.account, objects, integrations };
}

const strip = (l: PlannedLayer & { rotationId?: string }): PlannedLayer => {
  const { rotationId: _, ...layer } = l;
  return layer;
};

function skipSchedule(name: string, id: string, tz: string, why: string): PlannedSchedule {
  return { kind: 'schedule', action: 'skip', name, source_id: id, time_zone: tz, layers: [], overrides: [], why };
}
