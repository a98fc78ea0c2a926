import { isPlan, type Plan } from '../credit';
import type { Account, Store } from '../store';
import { passwordProblem } from './passwords';
import { EMAIL, type PanelUsersService } from './users';

export interface NewAccountInput {
  name: string;
  plan: string;
  /** '' or absent: the plan's amount. */
  monthlyCredit?: string;
  ownerEmail?: string;
  ownerPassword?: string;
}

export type NewAccountResult =
  | { ok: true; account: Account; owner: { login: string; generatedPassword: string | null } | null }
  | { ok: false; code: 'NAME_REQUIRED' | 'INVALID_PLAN' | 'INVALID_CREDIT' | 'INVALID_LOGIN' | 'PASSWORD_TOO_SHORT' | 'LOGIN_TAKEN' };

/** '' → null (plan default); a whole number ≥ 0 → itself; anything else → undefined (invalid). */
export function parseMonthlyCredit(raw: string | undefined): number | null | undefined {
  const v = (raw ?? '').trim();
  if (v === '') return null;
  return /^\d{1,9}$/.test(v) ? Number(v) : undefined;
}

/**
 * The administrator's account operations, shared by the panel and the CLI. Input is
 * checked before anything is written, so a refused owner leaves no orphan account.
 */
export async function createAccountWithOwner(
  store: Store,
  users: PanelUsersService,
  input: NewAccountInput,
): Promise<NewAccountResult> {
  const name = input.name.trim();
  if (!name) return { ok: false, code: 'NAME_REQUIRED' };
  const plan = input.plan.toLowerCase();
  if (!isPlan(plan)) return { ok: false, code: 'INVALID_PLAN' };
  const monthlyCredit = parseMonthlyCredit(input.monthlyCredit);
  if (monthlyCredit === undefined) return { ok: false, code: 'INVALID_CREDIT' };
  const email = input.ownerEmail?.trim() ?? '';
  if (email) {
    if (!EMAIL.test(email)) return { ok: false, code: 'INVALID_LOGIN' };
    if (input.ownerPassword && passwordProblem(input.ownerPassword)) return { ok: false, code: 'PASSWORD_TOO_SHORT' };
    if (store.panelUsers.findByLogin(email)) return { ok: false, code: 'LOGIN_TAKEN' };
  }
  const account = await store.writes.run(() => store.accounts.create({ name, plan: plan as Plan, monthlyCredit }));
  if (!email) return { ok: true, account, owner: null };
  const owner = await users.createOwner(account.id, email, input.ownerPassword || undefined);
  if (!owner.ok) {
    // Lost a race for the login or the address is malformed: take the account back out.
    await store.writes.run(() => store.db.query('DELETE FROM accounts WHERE id = $id').run({ id: account.id }));
    return { ok: false, code: owner.code === 'NO_ACCOUNT' ? 'INVALID_LOGIN' : owner.code };
  }
  return { ok: true, account, owner: { login: owner.user.login, generatedPassword: owner.generatedPassword } };
}
