import { stepTargets } from '../schedules/step-numbers';
import type { CallTarget } from '../people';
import type { EscalationPlan, Tx } from '../store';

/**
 * Where an escalation goes from a position of its plan at an instant (docs/on-call.md "Nothing
 * silently calls nobody": a step that resolves to nobody moves on at once):
 * - `step`: the first step, from `from` on (rounds wrapping), that reaches someone;
 * - `out_of_rounds`: the rounds ran out first (after calls of earlier steps: unacknowledged);
 * - `nobody`: every step of the plan, tried in turn at this instant, reaches nobody.
 * `skipped` says why each step passed over reached nobody, as `why` does for `nobody`.
 */
export type Route =
  | { kind: 'step'; round: number; step: number; numbers: string[]; targets: CallTarget[]; skipped: string[] }
  | { kind: 'out_of_rounds'; skipped: string[] }
  | { kind: 'nobody'; why: string };

export async function routeFrom(tx: Pick<Tx, 'schedules' | 'people'>, accountId: string, plan: EscalationPlan, from: { round: number; step: number }, at: number): Promise<Route> {
  const skipped: string[] = [];
  let { round, step } = from;
  // One pass over the steps is enough: at one instant a step reaches whom it reached before.
  for (let tried = 0; tried < plan.steps.length; tried++) {
    if (round > plan.rounds) return { kind: 'out_of_rounds', skipped };
    const targets = await stepTargets(tx, accountId, plan.steps[step]!, at);
    if (targets.numbers.length > 0) return { kind: 'step', round, step, numbers: targets.numbers, targets: targets.targets, skipped };
    skipped.push(`step ${step + 1}: ${targets.nobody.join(', ') || 'nobody to call'}`);
    step += 1;
    if (step >= plan.steps.length) {
      round += 1;
      step = 0;
    }
  }
  return { kind: 'nobody', why: skipped.join('; ') };
}
