import type { Person, Tables } from '../store';

/**
 * How schedules, overrides and policy steps name a person: by id, kept as the id whatever
 * was typed (a name, any case), so a renamed person is still the one named and a change to
 * their phones holds everywhere from the next call (docs/on-call.md "People"). Resolved when a
 * call is placed, never copied when the schedule or policy is saved.
 */

/** Which person a call reaches, and which of their phones it is (0: the first). */
export interface PersonRef {
  personId: string;
  phone: number;
}

/** A number to call, and the person it reaches (null: a bare number, as before people). */
export interface CallTarget {
  number: string;
  person: PersonRef | null;
}

/** The account's people by id: one read for a whole schedule or step. */
export async function peopleById(t: Pick<Tables, 'people'>, accountId: string): Promise<Map<string, Person>> {
  return new Map((await t.people.list(accountId)).map((p) => [p.id, p]));
}

/** Where a person is reached first: their first phone (null: they have none). */
export function firstTarget(p: Person): CallTarget | null {
  const first = p.phones[0];
  return first ? { number: first.number, person: { personId: p.id, phone: 0 } } : null;
}

export type NamesResult = { ok: true; ids: string[] } | { ok: false; unknown: string };

/** People named (by name in any case, or by id) in the account, as ids; the first unknown one refuses them all. */
export async function personIdsOf(t: Pick<Tables, 'people'>, accountId: string, names: readonly string[]): Promise<NamesResult> {
  const ids: string[] = [];
  for (const n of names) {
    const p = await t.people.find(accountId, n);
    if (!p) return { ok: false, unknown: n };
    if (!ids.includes(p.id)) ids.push(p.id);
  }
  return { ok: true, ids };
}
