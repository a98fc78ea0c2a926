import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { createFallbackService } from '../accounts';
import { createPoliciesService, routeFrom } from '../escalation';
import { createSchedulesService, stepTargets } from '../schedules';
import type { Store } from '../store';
import { policyFromForm, stepsToText } from '../http/panel/policy-form';
import { namesPerson } from './input';
import { createPeopleService } from './service';

// Contract "People" (docs/on-call.md "People"): the store and the service, on both stores (the
// postgres project runs this file too).
let clock: ReturnType<typeof manualClock>;
let store: Store;

beforeEach(async () => {
  clock = manualClock('2026-11-15T12:00:00Z');
  store = await tempStore(clock);
});
afterEach(() => store.close());

const services = (numberForms?: ('tr-mobile' | 'extension')[]) => ({
  people: createPeopleService({ store, clock, defaultLanguage: 'tr', ...(numberForms ? { numberForms } : {}) }),
  schedules: createSchedulesService({ store, clock }),
  policies: createPoliciesService({ store, clock }),
  fallbacks: createFallbackService({ store, clock }),
});

async function account() {
  return (await store.transaction((tx) => tx.accounts.create({ name: 't', plan: 'starter' }))).id;
}

describe('people', () => {
  it('creates, finds by name in any case or id, lists, updates and deletes a person', async () => {
    const { people } = services();
    const acc = await account();
    const r = await people.create(acc, { name: 'Ayşe', phones: ['0532 111 11 11', '5322222222'], sms: ['5321111111'], emails: ['ayse@example.com'], language: 'en', time_zone: 'Europe/Istanbul' });
    if (!r.ok) throw new Error(r.code);
    expect(r.person).toMatchObject({ name: 'Ayşe', phones: [{ number: '5321111111', verifiedAt: null }, { number: '5322222222', verifiedAt: null }], sms: ['5321111111'], emails: ['ayse@example.com'], language: 'en', timeZone: 'Europe/Istanbul' });
    expect(r.person.id).toMatch(/^per_/);
    expect(await people.get(acc, 'AYŞE')).toMatchObject({ ok: true, person: { id: r.person.id } });
    expect(await people.get(acc, r.person.id)).toMatchObject({ ok: true, person: { name: 'Ayşe' } });

    // update replaces what it names, keeps the rest
    const u = await people.update(acc, 'ayşe', { phones: ['5323333333'] });
    expect(u).toMatchObject({ ok: true, person: { name: 'Ayşe', phones: [{ number: '5323333333' }], sms: ['5321111111'], language: 'en' } });
    expect((await store.people.get(r.person.id))!.phones).toEqual([{ number: '5323333333', verifiedAt: null, lastCheck: null }]);
    expect((await people.list(acc)).map((p) => p.name)).toEqual(['Ayşe']);

    expect(await people.remove(acc, 'Ayşe')).toMatchObject({ ok: true });
    expect(await people.get(acc, 'Ayşe')).toEqual({ ok: false, code: 'person_not_found' });
  });

  it('refuses a duplicate name (any case), a phone numbers.accept refuses, a bad language or zone; defaults the language', async () => {
    const { people } = services();
    const acc = await account();
    expect(await people.create(acc, { name: 'Ayşe', phones: ['5321111111'] })).toMatchObject({ ok: true, person: { language: 'tr', timeZone: null } });
    expect(await people.create(acc, { name: 'ayşe' })).toEqual({ ok: false, code: 'person_name_taken' });
    expect(await people.create(acc, { name: 'Cem', phones: ['123'] })).toEqual({ ok: false, code: 'invalid_phone_number', value: '123' });
    // An extension is refused under the default numbers.accept (tr-mobile), taken when accepted.
    expect(await people.create(acc, { name: 'Cem', phones: ['2001'] })).toEqual({ ok: false, code: 'invalid_phone_number', value: '2001' });
    expect(await services(['tr-mobile', 'extension']).people.create(acc, { name: 'Cem', phones: ['5324444444', '2001'] })).toMatchObject({
      ok: true,
      person: { phones: [{ number: '5324444444' }, { number: '2001' }] },
    });
    expect(await people.create(acc, { name: 'Deniz', language: 'de' })).toMatchObject({ ok: false, code: 'invalid_person', problem: 'language: tr or en, got de' });
    expect(await people.create(acc, { name: 'Deniz', time_zone: '+03:00' })).toMatchObject({ ok: false, code: 'invalid_person' });
    expect(await people.create(acc, { name: 'Deniz', emails: ['not-an-address'] })).toMatchObject({ ok: false, code: 'invalid_person' });
    expect(await people.create(acc, { name: 'a,b' })).toMatchObject({ ok: false, code: 'invalid_person' });
    // A rename onto another's name (any case) is refused too.
    expect(await people.update(acc, 'Cem', { name: 'AYŞE' })).toEqual({ ok: false, code: 'person_name_taken' });
  });

  it("never finds another account's person", async () => {
    const { people } = services();
    const a = await account();
    const b = await account();
    const r = await people.create(a, { name: 'Ayşe', phones: ['5321111111'] });
    if (!r.ok) throw new Error(r.code);
    expect(await people.get(b, 'Ayşe')).toEqual({ ok: false, code: 'person_not_found' });
    expect(await people.get(b, r.person.id)).toEqual({ ok: false, code: 'person_not_found' });
    expect(await people.update(b, r.person.id, { phones: ['5329999999'] })).toEqual({ ok: false, code: 'person_not_found' });
    expect(await people.remove(b, r.person.id)).toEqual({ ok: false, code: 'person_not_found' });
    // The same name is free in another account.
    expect(await people.create(b, { name: 'Ayşe' })).toMatchObject({ ok: true });
  });

  it('refuses a layer, an override or a step naming an unknown person, naming them', async () => {
    const { schedules, policies, people } = services();
    const acc = await account();
    const other = await account();
    await people.create(other, { name: 'Ayşe', phones: ['5321111111'] });
    const layers = [{ participants: [{ person: 'Ayşe' }], shift: '7d', start: '2026-11-02T09:00' }];
    expect(await schedules.create(acc, { name: 'noc', timeZone: 'Europe/Istanbul', layers })).toEqual({
      ok: false,
      code: 'invalid_schedule',
      problem: 'layers.0.participants.0.person: unknown person: Ayşe',
    });
    expect(await policies.create(acc, { name: 'p', steps: [{ numbers: [], people: ['Ayşe'], wait_s: 60 }] })).toEqual({
      ok: false,
      code: 'invalid_policy',
      problem: 'steps.0.people: unknown person: Ayşe',
    });
    const s = await schedules.create(acc, { name: 'noc', timeZone: 'Europe/Istanbul', layers: [{ participants: [{ name: 'Cem', number: '5324444444' }], shift: '7d', start: '2026-11-02T09:00' }] });
    expect(s.ok).toBe(true);
    expect(await schedules.addOverride(acc, 'noc', { from: '2026-11-15T13:00Z', to: '2026-11-15T14:00Z', person: 'Ayşe' })).toEqual({
      ok: false,
      code: 'invalid_override',
      problem: '--person: unknown person: Ayşe',
    });
  });

  it('schedules and steps name a person; on call they answer name, first phone and person; a change holds from the next call', async () => {
    const { schedules, policies, people } = services();
    const acc = await account();
    const ayse = await people.create(acc, { name: 'Ayşe', phones: ['5321111111', '5322222222'] });
    if (!ayse.ok) throw new Error(ayse.code);
    const layers = [{ participants: [{ person: 'ayşe' }, { name: 'Cem', number: '5324444444' }], shift: '7d', start: '2026-11-09T09:00' }];
    const s = await schedules.create(acc, { name: 'noc', timeZone: 'Europe/Istanbul', layers });
    if (!s.ok) throw new Error(s.code);
    // Kept by id, whatever was typed.
    expect(s.schedule.layers[0]!.participants).toEqual([{ person: ayse.person.id }, { name: 'Cem', number: '5324444444' }]);
    expect(await schedules.oncall(acc, 'noc')).toMatchObject({ ok: true, oncall: { name: 'Ayşe', number: '5321111111', person: ayse.person.id } });
    // The next week: the {"name","number"} participant, as before.
    expect(await schedules.oncall(acc, 'noc', Date.parse('2026-11-17T12:00:00Z'))).toMatchObject({ ok: true, oncall: { name: 'Cem', number: '5324444444' } });

    const p = await policies.create(acc, { name: 'night', steps: [{ numbers: ['5325555555'], people: ['AYŞE'], schedules: ['noc'], wait_s: 60 }] });
    if (!p.ok) throw new Error(p.code);
    expect(p.policy.steps[0]!.people).toEqual([ayse.person.id]);
    const before = await stepTargets(store, acc, p.policy.steps[0]!, clock());
    // The person once (the schedule's on-call person is the same number), first phone, with who it reaches.
    expect(before.targets).toEqual([
      { number: '5325555555', person: null },
      { number: '5321111111', person: { personId: ayse.person.id, phone: 0 } },
    ]);

    // Ayşe's new phone: the schedule and the policy call it from the next call, unedited.
    await people.update(acc, 'Ayşe', { phones: ['5326666666'], name: 'Ayşe K' });
    const after = await stepTargets(store, acc, p.policy.steps[0]!, clock());
    expect(after.numbers).toEqual(['5325555555', '5326666666']);
    expect(await schedules.oncall(acc, 'noc')).toMatchObject({ ok: true, oncall: { name: 'Ayşe K', number: '5326666666', person: ayse.person.id } });
    const route = await routeFrom(store, acc, { steps: p.policy.steps, rounds: 1 }, { round: 1, step: 0 }, clock());
    expect(route).toMatchObject({ kind: 'step', numbers: ['5325555555', '5326666666'] });

    // An override of a person beats the layers, and follows the person too.
    await people.create(acc, { name: 'Deniz', phones: ['5327777777'] });
    const o = await schedules.addOverride(acc, 'noc', { from: '2026-11-15T11:00Z', to: '2026-11-15T14:00Z', person: 'deniz' });
    expect(o).toMatchObject({ ok: true, override: { personId: expect.stringMatching(/^per_/), phoneNumber: '' } });
    expect(await schedules.oncall(acc, 'noc')).toMatchObject({ ok: true, oncall: { name: 'Deniz', number: '5327777777' } });
    expect(await schedules.addOverride(acc, 'noc', { from: '2026-11-15T11:00Z', to: '2026-11-15T14:00Z', person: 'Deniz', number: '5321111111' })).toMatchObject({
      ok: false,
      code: 'invalid_override',
    });
  });

  it('a person with no phone reaches nobody, and says so', async () => {
    const { policies, people } = services();
    const acc = await account();
    await people.create(acc, { name: 'Ayşe' });
    const p = await policies.create(acc, { name: 'night', steps: [{ numbers: [], people: ['Ayşe'], wait_s: 60 }] });
    if (!p.ok) throw new Error(p.code);
    expect(await routeFrom(store, acc, { steps: p.policy.steps, rounds: 1 }, { round: 1, step: 0 }, clock())).toEqual({ kind: 'nobody', why: 'step 1: person Ayşe has no phone' });
  });

  it('refuses to delete a person a schedule, a policy or the fallback names (person_in_use, used_by)', async () => {
    const { schedules, policies, people, fallbacks } = services();
    const acc = await account();
    const ayse = await people.create(acc, { name: 'Ayşe', phones: ['5321111111'] });
    if (!ayse.ok) throw new Error(ayse.code);
    const s = await schedules.create(acc, { name: 'noc', timeZone: 'Europe/Istanbul', layers: [{ participants: [{ person: 'Ayşe' }], shift: '7d', start: '2026-11-02T09:00' }] });
    const p = await policies.create(acc, { name: 'night', steps: [{ numbers: [], people: ['Ayşe'], wait_s: 60 }] });
    if (!s.ok || !p.ok) throw new Error('setup');
    expect(await people.remove(acc, 'Ayşe')).toEqual({
      ok: false,
      code: 'person_in_use',
      usedBy: [
        { kind: 'schedule', id: s.schedule.id, name: 'noc' },
        { kind: 'policy', id: p.policy.id, name: 'night' },
      ],
    });
    await schedules.remove(acc, 'noc');
    await policies.remove(acc, 'night');
    expect(await fallbacks.set(acc, { person: 'AYŞE' })).toMatchObject({ ok: true, fallback: { phoneNumber: null, personId: ayse.person.id } });
    expect(await people.remove(acc, 'Ayşe')).toEqual({ ok: false, code: 'person_in_use', usedBy: [{ kind: 'fallback', id: acc, name: 'account fallback' }] });
    await fallbacks.set(acc, { phone: '5329999999' });
    expect(await people.remove(acc, 'Ayşe')).toMatchObject({ ok: true });
    expect(await fallbacks.set(acc, { person: 'Ayşe' })).toEqual({ ok: false, code: 'person_not_found', value: 'Ayşe' });
  });
});

describe('a step written as text names people with +', () => {
  it('+ then a name is a person; + then digits stays an E.164 number', () => {
    expect(['+Ayşe', '+ Gülşen', '+per_abc', '+905321111111', '+90 532 111 11 11', '5321111111', '@noc'].map(namesPerson)).toEqual([true, true, true, false, false, false, false]);
    const form = policyFromForm({ name: 'p', steps: '+Ayşe, @noc, +905321111111 : 300\n+per_x : 60' });
    expect(form.steps).toEqual([
      { numbers: ['+905321111111'], people: ['Ayşe'], schedules: ['noc'], wait_s: 300 },
      { numbers: [], people: ['per_x'], wait_s: 60 },
    ]);
    // Stored steps keep ids: the panel's text keeps them, so a save keeps the same person.
    expect(stepsToText([{ numbers: ['5321111111'], people: ['per_x'], schedules: ['noc'], wait_s: 300 }])).toBe('+per_x, @noc, 5321111111 : 300');
  });
});
