import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { configSchema } from '../config';
import { createServices } from '../services';
import type { Store } from '../store';
import { applyPlan, ImportRefused } from './apply';
import { compareTimelines } from './check';
import type { ImportPlan, PlannedObject, PlannedPerson, PlannedPolicy, PlannedSchedule } from './plan';

// docs/integrations.md "Moving from Opsgenie or PagerDuty": --apply on plans written here, on a
// store of its own: all or nothing, found again by source id, hand-made objects never touched.
let clock: ReturnType<typeof manualClock>;
let store: Store;
let acc: string;
const config = configSchema.parse({});

beforeEach(async () => {
  clock = manualClock('2026-11-15T12:00:00Z');
  store = await tempStore(clock);
  acc = (await store.transaction((tx) => tx.accounts.create({ name: 't', plan: 'starter' }))).id;
});
afterEach(() => store.close());

const person = (id: string, name: string, phone: string): PlannedPerson => ({
  kind: 'person',
  action: 'create',
  name,
  source_id: id,
  phones: [phone],
  sms: [],
  emails: [`${id}@example.com`],
  language: 'tr',
  time_zone: 'Europe/Istanbul',
  skipped_numbers: [],
});
const schedule = (id: string, name: string, shift = '1d', tz = 'Europe/Istanbul'): PlannedSchedule => ({
  kind: 'schedule',
  action: 'create',
  name,
  source_id: id,
  time_zone: tz,
  layers: [{ source: `${id}-r1`, shift, start: '2026-11-02T09:00', participants: [{ name: 'Ayşe', number: '5321111111', person_source_id: 'u1' }, { name: 'Bora', number: '5324444444', person_source_id: 'u2' }] }],
  overrides: [{ from: '2026-11-20T00:00:00.000Z', to: '2026-11-21T00:00:00.000Z', name: 'Bora', number: '5324444444', person_source_id: 'u2' }],
});
const policy = (wait = 300): PlannedPolicy => ({
  kind: 'policy',
  action: 'create',
  name: 'noc-escalation',
  source_id: 'e1',
  rounds: 2,
  steps: [
    { people: [], numbers: [], schedules: ['noc'], wait_s: wait },
    { people: ['Bora'], numbers: ['5324444444'], schedules: [], wait_s: 600 },
  ],
});
const planOf = (objects: PlannedObject[]): ImportPlan => ({ source: 'opsgenie', account: acc, objects, integrations: [] });
const apply = (objects: PlannedObject[], write = true) => applyPlan(planOf(objects), { store, clock, servicesOn: (s) => createServices({ store: s, clock, config }) }, write);
const actions = (p: ImportPlan) => p.objects.map((o) => [o.kind, o.name, o.action, ...(o.why ? [o.why] : [])]);
const everything = async () => ({
  people: await store.people.list(acc),
  schedules: await store.schedules.list(acc),
  policies: await store.policies.list(acc),
  sources: await store.importSources.list(acc, 'opsgenie'),
});

describe('applyPlan', () => {
  const base = () => [person('u1', 'Ayşe', '5321111111'), person('u2', 'Bora', '5324444444'), schedule('s1', 'noc'), policy()];

  it('creates people, the schedule naming them with its override, the policy naming both; a dry run writes nothing', async () => {
    const dry = await apply(base(), false);
    expect(actions(dry).map((a) => a[2])).toEqual(['create', 'create', 'create', 'create']);
    expect(await everything()).toEqual({ people: [], schedules: [], policies: [], sources: [] });

    await apply(base());
    const { people, schedules, policies, sources } = await everything();
    const [ayse, bora] = [people.find((p) => p.name === 'Ayşe')!, people.find((p) => p.name === 'Bora')!];
    expect(schedules[0]!.layers[0]!.participants).toEqual([{ person: ayse.id }, { person: bora.id }]);
    expect((await store.schedules.overrides(schedules[0]!.id, clock())).map((o) => [o.personId, new Date(o.startsAt).toISOString()])).toEqual([[bora.id, '2026-11-20T00:00:00.000Z']]);
    // The person is called by their phones: the plan's copy of the number is not kept beside them.
    expect(policies[0]!.steps).toEqual([
      { numbers: [], schedules: ['noc'], wait_s: 300 },
      { numbers: [], people: [bora.id], wait_s: 600 },
    ]);
    expect(sources.map((s) => [s.sourceKind, s.sourceId])).toEqual([
      ['person', 'u1'],
      ['person', 'u2'],
      ['policy', 'e1'],
      ['schedule', 's1'],
    ]);
  });

  it('a second run over a changed source updates in place (same ids), a third finds all unchanged', async () => {
    await apply(base());
    const before = await everything();
    const changed = [person('u1', 'Ayşe', '5329999999'), person('u2', 'Bora', '5324444444'), schedule('s1', 'noc', '7d'), policy(120)];
    expect(actions(await apply(changed))).toEqual([
      ['person', 'Ayşe', 'update'],
      ['person', 'Bora', 'unchanged'],
      ['schedule', 'noc', 'update'],
      ['policy', 'noc-escalation', 'update'],
    ]);
    const after = await everything();
    expect(after.people.map((p) => p.id)).toEqual(before.people.map((p) => p.id));
    expect(after.schedules.map((s) => [s.id, s.icsToken, s.layers[0]!.shift])).toEqual([[before.schedules[0]!.id, before.schedules[0]!.icsToken, '7d']]);
    expect(after.policies[0]!.steps[0]!.wait_s).toBe(120);
    expect((await store.schedules.overrides(after.schedules[0]!.id, clock())).length).toBe(1);
    expect(actions(await apply(changed)).map((a) => a[2])).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged']);
  });

  it('a hand-made person of the same name is a skip, never touched, and so is what names them', async () => {
    const handMade = await store.transaction((tx) => tx.people.create(acc, { name: 'bora', phones: [{ number: '5320000000', verifiedAt: null }], sms: [], emails: [], language: 'en', timeZone: null }, clock()));
    const stored = await store.people.get(handMade.id);
    const r = await apply(base());
    expect(actions(r)).toEqual([
      ['person', 'Ayşe', 'create'],
      ['person', 'Bora', 'skip', 'a person named Bora already exists here and was not imported: objects made by hand are never touched'],
      ['schedule', 'noc', 'skip', "Bora was not imported (see the person's line)"],
      ['policy', 'noc-escalation', 'skip', 'schedule noc was not imported (see its line)'],
    ]);
    expect(await store.people.get(handMade.id)).toEqual(stored);
  });

  it('a refusal in the middle of writing writes nothing: the people written before it are rolled back', async () => {
    const bad = [...base().slice(0, 2), schedule('s1', 'noc'), schedule('s2', 'broken', '1d', 'Mars/Olympus')];
    await expect(apply(bad)).rejects.toThrow(ImportRefused);
    await expect(apply(bad)).rejects.toThrow('schedule broken was refused (invalid_schedule: time_zone: not an IANA time zone: Mars/Olympus): nothing was written');
    expect(await everything()).toEqual({ people: [], schedules: [], policies: [], sources: [] });
  });
});

describe('compareTimelines', () => {
  const t = (s: string) => Date.parse(`2026-11-16T${s}:00Z`);
  it('the stretches that differ, minute by minute; several of theirs at once joined; nobody is null', () => {
    const theirs = [
      { start: t('00:00'), end: t('06:00'), who: 'A' },
      { start: t('06:00'), end: t('12:00'), who: 'B' },
      { start: t('10:00'), end: t('10:30'), who: 'C' },
    ];
    const ours = [
      { start: t('00:00'), end: t('06:01'), who: 'A' },
      { start: t('06:01'), end: t('11:00'), who: 'B' },
    ];
    expect(compareTimelines(t('00:00'), t('12:00'), theirs, ours)).toEqual([
      { from: '2026-11-16T06:00:00.000Z', to: '2026-11-16T06:01:00.000Z', theirs: 'B', ours: 'A' },
      { from: '2026-11-16T10:00:00.000Z', to: '2026-11-16T10:30:00.000Z', theirs: 'B + C', ours: 'B' },
      { from: '2026-11-16T11:00:00.000Z', to: '2026-11-16T12:00:00.000Z', theirs: 'B', ours: null },
    ]);
    expect(compareTimelines(t('00:00'), t('12:00'), ours, ours)).toEqual([]);
  });
});
