/**
 * `credit show --json`: this period's credit of an account (`period` is YYYY-MM in
 * credit.timezone). Fields may be added, never renamed.
 */
export function creditJson(period: string, monthlyCredit: number, used: number) {
  return { period, monthly_credit: monthlyCredit, used, remaining: Math.max(0, monthlyCredit - used) };
}
