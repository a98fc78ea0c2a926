import type { Account } from '../store';

/**
 * An account: `account create|set-plan|disable|enable|list --json`. Fields may be added,
 * never renamed.
 */
export function accountJson(a: Account) {
  return { id: a.id, name: a.name, plan: a.plan, monthly_credit: a.monthlyCredit, disabled: a.disabled };
}

/**
 * `account create --json`: the account and, with --owner-email, its panel login and the
 * generated password, shown only then. Fields may be added, never renamed.
 */
export function newAccountJson(a: Account, owner: { login: string; generatedPassword: string | null } | null) {
  return owner ? { ...accountJson(a), owner_email: owner.login, owner_password: owner.generatedPassword } : accountJson(a);
}
