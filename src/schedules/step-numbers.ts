import { firstTarget, peopleById, type CallTarget } from '../people';
import type { PolicyStep, Tables } from '../store';
import { rulesOf } from './rules';
import { onCallAt } from './timeline';

/** Whom a step reaches at an instant, and which of its schedules and people gave nobody (and why). */
export interface StepTargets {
  numbers: string[];
  /** Each number of `numbers`, with the person it reaches (null: a bare number); same order. */
  targets: CallTarget[];
  /** "schedule backup has nobody on call": one entry per schedule or person of the step that added nobody. */
  nobody: string[];
}

/**
 * The numbers an escalation step calls when it starts at `at` (docs/on-call.md "On-call schedules"):
 * its own numbers, then each person it names (their first phone: their next ones are called
 * when one fails, src/people/next-phone.ts), then whoever is on call at that instant in each
 * schedule it names, each number once. People are read as they are now: a changed phone holds
 * from the next call (docs/on-call.md "People"). A schedule with nobody on call then (no
 * participants, a gap in the rota), or deleted since (a running escalation keeps its own copy
 * of the steps), a person deleted since or with no phone (named by the step, or on call in a
 * schedule), adds nobody, and says so in `nobody` (docs/on-call.md "Nothing silently calls nobody").
 */
export async function stepTargets(t: Pick<Tables, 'schedules' | 'people'>, accountId: string, step: PolicyStep, at: number): Promise<StepTargets> {
  const targets: CallTarget[] = step.numbers.map((number) => ({ number, person: null }));
  const nobody: string[] = [];
  const add = (target: CallTarget) => {
    if (!targets.some((x) => x.number === target.number)) targets.push(target);
  };
  const people = step.people?.length ? await peopleById(t, accountId) : new Map();
  for (const id of step.people ?? []) {
    const person = people.get(id);
    const first = person ? firstTarget(person) : null;
    if (first) add(first);
    else nobody.push(person ? `person ${person.name} has no phone` : `person ${id} does not exist`);
  }
  for (const name of step.schedules ?? []) {
    const schedule = await t.schedules.find(accountId, name);
    if (!schedule) {
      nobody.push(`schedule ${name} does not exist`);
      continue;
    }
    const { name: who, number, person } = onCallAt(await rulesOf(t, schedule, at), at);
    // A person on call with no phone is not a gap (docs/on-call.md "People": "person Ayşe has no
    // phone"); saying "nobody on call" would send the reader to the rota instead of the person.
    if (!number) nobody.push(person ? `schedule ${schedule.name}: person ${who} has no phone` : `schedule ${schedule.name} has nobody on call`);
    else add({ number, person: person ? { personId: person, phone: 0 } : null });
  }
  return { numbers: targets.map((x) => x.number), targets, nobody };
}

/** stepTargets' numbers alone (the voice desk's keypad 0). */
export async function stepNumbers(t: Pick<Tables, 'schedules' | 'people'>, accountId: string, step: PolicyStep, at: number): Promise<string[]> {
  return (await stepTargets(t, accountId, step, at)).numbers;
}
