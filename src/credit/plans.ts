export const PLANS = ['free', 'starter', 'professional', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

/** Monthly call credit per plan (interface 2.5); an account may set its own amount. */
export const PLAN_MONTHLY_CREDIT: Record<Plan, number> = {
  free: 1,
  starter: 15,
  professional: 50,
  enterprise: 100,
};

/** API and webhook access needs Starter or higher (interface 1 and 5). */
export function planAllowsApi(plan: Plan): boolean {
  return plan !== 'free';
}

export function isPlan(value: string): value is Plan {
  return (PLANS as readonly string[]).includes(value);
}
