import type { PolicyStep, Tables } from '../store';
import { rulesOf } from './service';
import { onCallAt } from './timeline';

/** Whom a step reaches at an instant, and which of its schedules gave nobody (and why). */
export interface StepTargets {
  numbers: string[];
  /** "schedule backup has nobody on call": one entry per schedule of the step that added nobody. */
  nobody: string[];
}

/**
 * The numbers an escalation step calls when it starts at `at` (docs/on-call.md "On-call schedules"):
 * its own numbers, then whoever is on call at that instant in each schedule it names, each
 * number once. A schedule with nobody on call then (no participants, a gap in the rota), or
 * deleted since (a running escalation keeps its own copy of the steps), adds nobody, and says
 * so in `nobody` (docs/on-call.md "Nothing silently calls nobody").
 */
export async function stepTargets(t: Pick<Tables, 'schedules'>, accountId: string, step: PolicyStep, at: number): Promise<StepTargets> {
  const numbers = [...step.numbers];
  const nobody: string[] = [];
  for (const name of step.schedules ?? []) {
    const schedule = await t.schedules.find(accountId, name);
    if (!schedule) {
      nobody.push(`schedule ${name} does not exist`);
      continue;
    }
    const { number } = onCallAt(await rulesOf(t, schedule, at), at);
    if (!number) nobody.push(`schedule ${schedule.name} has nobody on call`);
    else if (!numbers.includes(number)) numbers.push(number);
  }
  return { numbers, nobody };
}

/** stepTargets' numbers alone (the voice desk's keypad 0). */
export async function stepNumbers(t: Pick<Tables, 'schedules'>, accountId: string, step: PolicyStep, at: number): Promise<string[]> {
  return (await stepTargets(t, accountId, step, at)).numbers;
}
