import type { PolicyStep, Tables } from '../store';
import { rulesOf } from './service';
import { onCallAt } from './timeline';

/**
 * The numbers an escalation step calls when it starts at `at` (docs/on-call.md "On-call
 * schedules"): its own numbers, then whoever is on call at that instant in each schedule it names,
 * each number once. A schedule deleted since, or with nobody on call then, adds nobody.
 */
export async function stepNumbers(t: Pick<Tables, 'schedules'>, accountId: string, step: PolicyStep, at: number): Promise<string[]> {
  const numbers = [...step.numbers];
  for (const name of step.schedules ?? []) {
    const schedule = await t.schedules.find(accountId, name);
    if (!schedule) continue;
    const { number } = onCallAt(await rulesOf(t, schedule, at), at);
    if (number && !numbers.includes(number)) numbers.push(number);
  }
  return numbers;
}
