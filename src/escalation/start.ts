import type { EscalationPlan, Policy, Tx } from '../store';

/**
 * The plan an alert follows: the policy as it is now (later edits never change a running
 * escalation), with any numbers the request named called at once with the first step.
 */
export function escalationPlan(policy: Policy, given: readonly string[]): EscalationPlan {
  const steps = policy.steps.map((s) => ({
    numbers: [...s.numbers],
    ...(s.people?.length ? { people: [...s.people] } : {}),
    ...(s.schedules?.length ? { schedules: [...s.schedules] } : {}),
    wait_s: s.wait_s,
  }));
  for (const n of given) if (!steps[0]!.numbers.includes(n)) steps[0]!.numbers.push(n);
  return { steps, rounds: policy.rounds };
}

/** The step-0 calls carry this ordinal (NewCall.escalationOrdinal). */
export const FIRST_STEP_ORDINAL = 1;

/**
 * Records the schedule of an alert whose first step's calls the intake just queued (with
 * FIRST_STEP_ORDINAL, or the ordinal of `step` when earlier steps reached nobody), inside the same transaction (`store.transaction`, with its `tx`).
 */
export async function beginEscalation(
  tx: Tx,
  e: { alertId: string; accountId: string; credentialId: string | null; policy: Policy; plan: EscalationPlan; message: string; now: number; step?: number },
): Promise<void> {
  // The first step that reaches someone (route.ts): earlier ones reached nobody and were passed over.
  const step = e.step ?? 0;
  await tx.escalations.start({
    alertId: e.alertId,
    accountId: e.accountId,
    credentialId: e.credentialId,
    policyId: e.policy.id,
    plan: e.plan,
    message: e.message,
    round: 1,
    step,
    stepStartedAt: e.now,
    nextAt: e.now + e.plan.steps[step]!.wait_s * 1000,
  });
}
