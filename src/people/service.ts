import type { Clock } from '../clock';
import type { NumberForm } from '../phone';
import { whoUses, type Person, type PersonFields, type PersonLanguage, type Store, type UsedBy } from '../store';
import { personFields } from './input';
import { queueVerification, type VerifyStart } from './verify';

export type PersonRefusal =
  | { ok: false; code: 'invalid_person'; problem: string }
  | { ok: false; code: 'invalid_phone_number'; value: string }
  | { ok: false; code: 'person_name_taken' | 'person_not_found' | 'account_not_found' };
export type PersonResult = { ok: true; person: Person } | PersonRefusal;
/** A delete refused: what names the person (src/store/usage-of.ts). */
export type PersonInUse = { ok: false; code: 'person_in_use'; usedBy: UsedBy[] };

/**
 * People of an account (docs/on-call.md "People"): the rules live here once, for the CLI, the
 * HTTP API and the panel. Schedules, overrides and policy steps keep a person's id, so a change
 * here holds for all of them from the next call (src/people/refs.ts resolves at call time).
 */
export interface PeopleService {
  /** `input`: the API's JSON fields (name, phones, sms, emails, language, time_zone). */
  create(accountId: string, input: unknown): Promise<PersonResult>;
  /** Replaces the fields given, keeps the others; a phone kept keeps its verification. */
  update(accountId: string, idOrName: string, input: unknown): Promise<PersonResult>;
  get(accountId: string, idOrName: string): Promise<PersonResult>;
  list(accountId: string): Promise<Person[]>;
  /** Refused (person_in_use) while a schedule, a policy or the account's fallback names them. */
  remove(accountId: string, idOrName: string): Promise<PersonResult | PersonInUse>;
  /** The person and who uses them now (the panel's delete page asks before it deletes); null: no such person. */
  usersOf(accountId: string, idOrName: string): Promise<{ person: Person; usedBy: UsedBy[] } | null>;
  /**
   * Queues a verification call to each phone of the person, or to `phone` only (any accepted
   * form of one of theirs): docs/on-call.md "Verification". Returns at once; the results
   * appear on the person as the calls end.
   */
  verify(accountId: string, idOrName: string, phone?: string): Promise<VerifyStart>;
}

const peopleLock = (accountId: string) => `people/${accountId}`;

export function createPeopleService(d: { store: Store; clock: Clock; numberForms?: readonly NumberForm[]; defaultLanguage: PersonLanguage }): PeopleService {
  const blank = (): PersonFields => ({ name: '', phones: [], sms: [], emails: [], language: d.defaultLanguage, timeZone: null });
  return {
    create: (accountId, input) =>
      d.store.transaction(async (tx): Promise<PersonResult> => {
        const f = personFields(input, blank(), d.numberForms);
        if (!f.ok) return f;
        if (!f.fields.name) return { ok: false, code: 'invalid_person', problem: 'name: required' };
        await tx.serializeOn(peopleLock(accountId));
        if (!(await tx.accounts.get(accountId))) return { ok: false, code: 'account_not_found' };
        if (await tx.people.find(accountId, f.fields.name)) return { ok: false, code: 'person_name_taken' };
        return { ok: true, person: await tx.people.create(accountId, f.fields, d.clock()) };
      }),
    update: (accountId, idOrName, input) =>
      d.store.transaction(async (tx): Promise<PersonResult> => {
        await tx.serializeOn(peopleLock(accountId));
        const p = await tx.people.find(accountId, idOrName);
        if (!p) return { ok: false, code: 'person_not_found' };
        const f = personFields(input, p, d.numberForms);
        if (!f.ok) return f;
        const other = await tx.people.find(accountId, f.fields.name);
        if (other && other.id !== p.id) return { ok: false, code: 'person_name_taken' };
        const now = d.clock();
        await tx.people.update(p.id, f.fields, now);
        return { ok: true, person: { ...p, ...f.fields, updatedAt: now } };
      }),
    async get(accountId, idOrName) {
      const person = await d.store.people.find(accountId, idOrName);
      return person ? { ok: true, person } : { ok: false, code: 'person_not_found' };
    },
    list: (accountId) => d.store.people.list(accountId),
    remove: (accountId, idOrName) =>
      d.store.transaction(async (tx): Promise<PersonResult | PersonInUse> => {
        await tx.serializeOn(peopleLock(accountId));
        const p = await tx.people.find(accountId, idOrName);
        if (!p) return { ok: false, code: 'person_not_found' };
        const usedBy = await whoUses(tx, accountId, { kind: 'person', id: p.id, name: p.name, now: d.clock() });
        if (usedBy.length > 0) return { ok: false, code: 'person_in_use', usedBy };
        await tx.people.delete(p.id);
        return { ok: true, person: p };
      }),
    verify: (accountId, idOrName, phone) => queueVerification(d, accountId, idOrName, phone),
    usersOf: (accountId, idOrName) =>
      d.store.transaction(async (tx) => {
        const person = await tx.people.find(accountId, idOrName);
        return person ? { person, usedBy: await whoUses(tx, accountId, { kind: 'person', id: person.id, name: person.name, now: d.clock() }) } : null;
      }),
  };
}
