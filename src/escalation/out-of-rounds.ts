import type { EscalationPlan } from '../store';

/**
 * The reason an escalation that ran out of rounds ends with (the alert's `unacknowledged`
 * reason; docs/on-call.md "Escalation: call until someone presses 1").
 *
 * When every step was called in every round it stays `every step called 2 time(s), nobody
 * pressed 1`, word for word (tests and callers read it). When a step reached nobody in some
 * round (a gap in the rota, a person with no phone: passed over at once, route.ts), saying
 * "every step called" was false (issue 49): the reason then counts each step's calls and ends
 * with why the last pass over skipped steps:
 * `step 1 called 2 time(s), step 2 called 0 time(s), nobody pressed 1; step 2: schedule backup has nobody on call`.
 *
 * `calledOrdinals`: the escalationOrdinal of each call of the alert (ordinalOf: one per round and
 * step, so distinct ordinals of a step are the rounds it was called in; 0, the fallback, and
 * anything outside the plan are not counted). `skipped`: route.ts's `skipped` of the look that
 * found the rounds over (the steps it passed over after the last one called).
 */
export function outOfRoundsReason(plan: Pick<EscalationPlan, 'steps' | 'rounds'>, calledOrdinals: Iterable<number>, skipped: readonly string[]): string {
  const steps = plan.steps.length;
  const rounds = new Map<number, Set<number>>();
  for (const o of calledOrdinals) {
    if (!Number.isInteger(o) || o < 1 || o > steps * plan.rounds) continue;
    const step = (o - 1) % steps;
    rounds.set(step, (rounds.get(step) ?? new Set()).add(o));
  }
  const counts = plan.steps.map((_, i) => rounds.get(i)?.size ?? 0);
  if (counts.every((n) => n === plan.rounds)) return `every step called ${plan.rounds} time(s), nobody pressed 1`;
  const called = counts.map((n, i) => `step ${i + 1} called ${n} time(s)`).join(', ');
  return `${called}, nobody pressed 1${skipped.length ? `; ${skipped.join('; ')}` : ''}`;
}
