import type { Clock } from '../clock';
import { digest } from '../digest';
import type { PoliciesService } from '../escalation';
import { randomToken } from '../ids';
import type { MaintenanceService } from '../maintenance';
import type { PeopleService } from '../people';
import { validateLayers, type SchedulesService } from '../schedules';
import type { Store, Tx } from '../store';
import type { ImportPlan, PlannedHeartbeat, PlannedObject, PlannedPerson, PlannedPolicy, PlannedSchedule, PlannedWindow } from './plan';

/**
 * The apply step of `voice-alert import … --apply` (docs/integrations.md "Moving from Opsgenie or
 * PagerDuty"): the plan written in ONE store transaction, so a refusal in the middle writes
 * nothing. Each object is found by its source id (import_sources, schema step 26), never by
 * name: found, it is updated (or left `unchanged`); not found, it is created and remembered; a
 * name already taken by an object without a source id was made here by hand and is a `skip`.
 *
 * Objects are written through the same services the CLI uses (people, schedules, policies,
 * maintenance), each given this transaction as its store, so every rule they check holds here
 * too. Heartbeats are written by their table: the service insists on someone to call, while an
 * imported heartbeat without an owner team calls the account's fallback, as the plan says.
 *
 * Without `write` the same work runs and is rolled back: the plan shows the actions an apply
 * would take now.
 */
export class ImportRefused extends Error {
  override readonly name = 'ImportRefused';
}

/** Thrown to roll a dry run back with what it found. */
class DryRun extends Error {
  constructor(readonly objects: PlannedObject[]) {
    super('dry run');
  }
}

/** The services an apply writes through: the registry's own (src/services.ts), on the apply's transaction. */
export interface ImportWriters {
  people: Pick<PeopleService, 'create' | 'update'>;
  schedules: Pick<SchedulesService, 'create' | 'update' | 'addOverride'>;
  policies: Pick<PoliciesService, 'create' | 'update'>;
  maintenance: Pick<MaintenanceService, 'create' | 'remove'>;
}

export interface ApplyDeps {
  store: Store;
  clock: Clock;
  /**
   * The registry's services built over `store` (src/services.ts hands in its createServices):
   * handed in, not imported, because the registry builds the import service and a folder never
   * imports the registry that imports it (test/layout/source-layout.test.ts, no cycle).
   */
  servicesOn(store: Store): ImportWriters;
}

const handMade = (kind: string, name: string) => `a ${kind} named ${name} already exists here and was not imported: objects made by hand are never touched`;

export async function applyPlan(plan: ImportPlan, d: ApplyDeps, write: boolean): Promise<ImportPlan> {
  try {
    const objects = await d.store.transaction(async (tx) => {
      const out = await applyIn(tx, plan, d);
      if (!write) throw new DryRun(out);
      return out;
    });
    return { ...plan, objects };
  } catch (e) {
    if (e instanceof DryRun) return { ...plan, objects: e.objects };
    throw e;
  }
}

async function applyIn(tx: Tx, plan: ImportPlan, d: ApplyDeps): Promise<PlannedObject[]> {
  // The services, on this one transaction: their own `transaction` runs inside it.
  const inTx = { ...tx, transaction: <T>(work: (t: Tx) => Promise<T>) => work(tx) } as unknown as Store;
  const svc = d.servicesOn(inTx);
  const acc = plan.account;
  const now = d.clock();
  const mine = async (kind: string, sourceId: string) => tx.importSources.find(acc, plan.source, kind, sourceId);
  const remember = (kind: string, sourceId: string, objectId: string) => tx.importSources.remember(acc, plan.source, { sourceKind: kind, sourceId, objectKind: kind, objectId }, now);
  const refused = (o: PlannedObject, r: { code: string; problem?: string }): never => {
    throw new ImportRefused(`${o.kind} ${o.name} was refused (${r.code}${r.problem ? `: ${r.problem}` : ''}): nothing was written`);
  };

  const personIds = new Map<string, string>(); // the source's user id → our person id
  const personByName = new Map<string, string>(); // the plan's person name → our person id
  const schedulesOk = new Set<string>(); // names of schedules that are ours
  const policyIds = new Map<string, string>(); // the plan's policy name → our policy id
  const out: PlannedObject[] = [];

  const person = async (o: PlannedPerson): Promise<PlannedObject> => {
    const input = { name: o.name, phones: o.phones, sms: o.sms, emails: o.emails, ...(o.language === 'tr' || o.language === 'en' ? { language: o.language } : {}), time_zone: o.time_zone };
    const rec = await mine('person', o.source_id);
    const existing = rec ? await tx.people.get(rec.objectId) : null;
    const done = (id: string, action: PlannedObject['action']) => {
      personIds.set(o.source_id, id);
      personByName.set(o.name, id);
      return { ...o, action };
    };
    if (existing) {
      const same =
        existing.name === o.name &&
        JSON.stringify(existing.phones.map((p) => p.number)) === JSON.stringify(o.phones) &&
        JSON.stringify(existing.sms) === JSON.stringify(o.sms) &&
        JSON.stringify(existing.emails) === JSON.stringify(o.emails) &&
        (input.language === undefined || existing.language === input.language) &&
        existing.timeZone === o.time_zone;
      if (same) return done(existing.id, 'unchanged');
      const r = await svc.people.update(acc, existing.id, input);
      if (!r.ok) return refused(o, r);
      return done(existing.id, 'update');
    }
    if (await tx.people.find(acc, o.name)) return { ...o, action: 'skip', why: handMade('person', o.name) };
    const r = await svc.people.create(acc, input);
    if (!r.ok) return refused(o, r);
    await remember('person', o.source_id, r.person.id);
    return done(r.person.id, 'create');
  };

  const schedule = async (o: PlannedSchedule): Promise<PlannedObject> => {
    const layersGiven = [];
    for (const l of o.layers) {
      const participants = [];
      for (const p of l.participants) {
        const id = personIds.get(p.person_source_id);
        if (!id) return { ...o, action: 'skip', why: `${p.name} was not imported (see the person's line)` };
        participants.push({ person: id });
      }
      layersGiven.push({ participants, shift: l.shift, start: l.start, ...(l.restrictions ? { restrictions: l.restrictions } : {}) });
    }
    const checked = validateLayers(layersGiven);
    if (!checked.ok) return refused(o, { code: 'invalid_schedule', problem: checked.problem });
    const overridesOf = o.overrides.map((v) => ({ from: v.from, to: v.to, person: personIds.get(v.person_source_id) }));
    const rec = await mine('schedule', o.source_id);
    const existing = rec ? await tx.schedules.get(rec.objectId) : null;
    let id: string;
    let action: PlannedObject['action'];
    if (existing) {
      id = existing.id;
      const same = existing.name === o.name && existing.timeZone === o.time_zone && JSON.stringify(existing.layers) === JSON.stringify(checked.layers);
      action = 'unchanged';
      if (!same) {
        const r = await svc.schedules.update(acc, id, { name: o.name, timeZone: o.time_zone, layers: checked.layers });
        if (!r.ok) return refused(o, r);
        action = 'update';
      }
    } else {
      if (await tx.schedules.find(acc, o.name)) return { ...o, action: 'skip', why: handMade('schedule', o.name) };
      const r = await svc.schedules.create(acc, { name: o.name, timeZone: o.time_zone, layers: checked.layers });
      if (!r.ok) return refused(o, r);
      id = r.schedule.id;
      action = 'create';
      await remember('schedule', o.source_id, id);
    }
    // Overrides: each one of the source's kept once (the same person, from, to).
    const have = await tx.schedules.overrides(id, now);
    for (const v of overridesOf) {
      if (!v.person) continue;
      const from = Date.parse(v.from);
      const to = Date.parse(v.to);
      if (have.some((h) => h.startsAt === from && h.endsAt === to && h.personId === v.person)) continue;
      const r = await svc.schedules.addOverride(acc, id, { from: v.from, to: v.to, person: v.person });
      if (!r.ok) return refused(o, r);
      if (action === 'unchanged') action = 'update';
    }
    schedulesOk.add(o.name);
    return { ...o, action };
  };

  const policy = async (o: PlannedPolicy): Promise<PlannedObject> => {
    const steps = [];
    for (const s of o.steps) {
      const people = [];
      for (const n of s.people) {
        const id = personByName.get(n);
        if (!id) return { ...o, action: 'skip', why: `${n} was not imported (see the person's line)` };
        people.push(id);
      }
      for (const n of s.schedules) if (!schedulesOk.has(n)) return { ...o, action: 'skip', why: `schedule ${n} was not imported (see its line)` };
      // The plan lists the people's numbers too (for a step before people existed): a person is called by their phones.
      const theirs = new Set((await Promise.all(people.map((id) => tx.people.get(id)))).flatMap((p) => p?.phones.map((x) => x.number) ?? []));
      const numbers = s.numbers.filter((n) => !theirs.has(n));
      steps.push({ numbers, ...(s.schedules.length ? { schedules: s.schedules } : {}), ...(people.length ? { people } : {}), wait_s: s.wait_s });
    }
    const input = { name: o.name, steps, rounds: o.rounds };
    const rec = await mine('policy', o.source_id);
    const existing = rec ? await tx.policies.get(rec.objectId) : null;
    if (existing) {
      policyIds.set(o.name, existing.id);
      const canon = (x: { numbers: string[]; schedules?: string[]; people?: string[]; wait_s: number }) => [x.numbers, x.schedules ?? [], x.people ?? [], x.wait_s];
      const same = existing.name === o.name && existing.rounds === o.rounds && JSON.stringify(existing.steps.map(canon)) === JSON.stringify(steps.map(canon));
      if (same) return { ...o, action: 'unchanged' };
      const r = await svc.policies.update(acc, existing.id, input);
      if (!r.ok) return refused(o, r);
      return { ...o, action: 'update' };
    }
    if (await tx.policies.find(acc, o.name)) return { ...o, action: 'skip', why: handMade('policy', o.name) };
    const r = await svc.policies.create(acc, input);
    if (!r.ok) return refused(o, r);
    await remember('policy', o.source_id, r.policy.id);
    policyIds.set(o.name, r.policy.id);
    return { ...o, action: 'create' };
  };

  const heartbeat = async (o: PlannedHeartbeat): Promise<PlannedObject> => {
    const policyId = o.policy === null ? null : (policyIds.get(o.policy) ?? undefined);
    if (policyId === undefined) return { ...o, action: 'skip', why: `policy ${o.policy} was not imported (see its line)` };
    const rec = await mine('heartbeat', o.source_id);
    const existing = rec ? await tx.heartbeats.find(acc, rec.objectId) : null;
    if (existing) {
      if (existing.name !== o.name || existing.intervalS !== o.interval_s || existing.message !== o.message || existing.policyId !== policyId) {
        // Its deadline runs from its last ping: changing the interval under it is not an import's call.
        return { ...o, action: 'skip', why: 'changed in the source since it was imported (name, interval, message or policy): an import never changes a running heartbeat; delete it here and import again' };
      }
      if (existing.paused === o.paused) return { ...o, action: 'unchanged' };
      if (o.paused) await tx.heartbeats.pause(existing.id, now);
      else await tx.heartbeats.resume(existing.id, now);
      return { ...o, action: 'update' };
    }
    if (await tx.heartbeats.find(acc, o.name)) return { ...o, action: 'skip', why: handMade('heartbeat', o.name) };
    // Scripts ping it by name (/v2/heartbeats/{name}/ping with the account's key): its own token is never shown.
    const h = await tx.heartbeats.create({ accountId: acc, name: o.name, tokenHash: digest(randomToken(32)), intervalS: o.interval_s, graceS: 60, policyId, numbers: [], message: o.message }, now);
    if (o.paused) await tx.heartbeats.pause(h.id, now);
    await remember('heartbeat', o.source_id, h.id);
    return { ...o, action: 'create' };
  };

  const window = async (o: PlannedWindow): Promise<PlannedObject> => {
    const input = { start: o.start, end: o.end, reason: o.name, match: o.match };
    const rec = await mine('window', o.source_id);
    const existing = rec ? await tx.maintenance.getInAccount(acc, rec.objectId) : null;
    let action: PlannedObject['action'] = 'create';
    if (existing) {
      if (existing.startsAt === Date.parse(o.start) && existing.endsAt === Date.parse(o.end) && existing.reason === o.name && JSON.stringify(existing.matches) === JSON.stringify(o.match)) {
        return { ...o, action: 'unchanged' };
      }
      // A window is named by nothing else: a changed one is replaced.
      const r = await svc.maintenance.remove(acc, existing.id);
      if (!r.ok) return refused(o, r);
      action = 'update';
    }
    const r = await svc.maintenance.create(acc, input);
    if (!r.ok) return refused(o, r);
    await remember('window', o.source_id, r.window.id);
    return { ...o, action };
  };

  // People first, then what names them: schedules, policies (naming both), heartbeats (naming a policy).
  const order = ['person', 'schedule', 'policy', 'heartbeat', 'window'];
  const results = new Map<PlannedObject, PlannedObject>();
  for (const kind of order) {
    for (const o of plan.objects) {
      if (o.kind !== kind || o.action === 'skip') continue;
      if (o.kind === 'person') results.set(o, await person(o));
      else if (o.kind === 'schedule') results.set(o, await schedule(o));
      else if (o.kind === 'policy') results.set(o, await policy(o));
      else if (o.kind === 'heartbeat') results.set(o, await heartbeat(o));
      else if (o.kind === 'window') results.set(o, await window(o));
    }
  }
  for (const o of plan.objects) out.push(results.get(o) ?? o);
  return out;
}
