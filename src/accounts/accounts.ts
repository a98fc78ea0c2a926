import { isPlan, type Plan } from '../credit';
import { insertPanelUser, preparePanelUser, type PreparedUser } from '../panel';
import type { Account, Store } from '../store';

export interface NewAccountInput {
  name: string;
  /** Any case; one of PLANS. */
  plan: string;
  /** Calls per month as typed: '' or absent for the plan's amount. */
  monthlyCredit?: string;
  /** Also create the account's first owner (a panel login) with this e-mail address. */
  ownerEmail?: string;
  /** '' or absent: one is generated and returned once. */
  ownerPassword?: string;
}

export type NewAccountResult =
  | { ok: true; account: Account; owner: { login: string; generatedPassword: string | null } | null }
  | { ok: false; code: 'NAME_REQUIRED' | 'INVALID_PLAN' | 'INVALID_CREDIT' | 'INVALID_LOGIN' | 'PASSWORD_TOO_SHORT' | 'LOGIN_TAKEN' };

export type AccountChangeResult = { ok: true; account: Account } | { ok: false; code: 'NO_ACCOUNT' | 'INVALID_PLAN' | 'INVALID_CREDIT' };

/**
 * The administrator's account operations, for the panel and the CLI alike. Every rule
 * about what an account may be is here; the edges only turn text into these inputs and
 * codes into their own words.
 */
export interface AccountsService {
  /** Input is checked before anything is written; the account and its owner are written together or not at all. */
  create(input: NewAccountInput): Promise<NewAccountResult>;
  /** `monthlyCredit` undefined keeps the account's own amount; '' returns it to the plan's. */
  setPlan(accountId: string, change: { plan: string; monthlyCredit?: string }): Promise<AccountChangeResult>;
  /** A disabled account's requests are refused; its data stays. */
  setDisabled(accountId: string, disabled: boolean): Promise<AccountChangeResult>;
}

/** '' → null (the plan's amount); up to nine digits → that number; anything else → undefined (invalid). */
export function parseMonthlyCredit(raw: string | undefined): number | null | undefined {
  const v = (raw ?? '').trim();
  if (v === '') return null;
  return /^\d{1,9}$/.test(v) ? Number(v) : undefined;
}

/** A plan name in any case, or null when there is no such plan. */
export function parsePlan(raw: string): Plan | null {
  const plan = raw.trim().toLowerCase();
  return isPlan(plan) ? plan : null;
}

export function createAccountsService(store: Store): AccountsService {
  return {
    async create(input) {
      const name = input.name.trim();
      if (!name) return { ok: false, code: 'NAME_REQUIRED' };
      const plan = parsePlan(input.plan);
      if (!plan) return { ok: false, code: 'INVALID_PLAN' };
      const monthlyCredit = parseMonthlyCredit(input.monthlyCredit);
      if (monthlyCredit === undefined) return { ok: false, code: 'INVALID_CREDIT' };
      let owner: PreparedUser | null = null;
      if (input.ownerEmail?.trim()) {
        // Checked before hashing too: a taken login should not cost an argon2 hash.
        if (await store.panelUsers.findByLogin(input.ownerEmail.trim())) return { ok: false, code: 'LOGIN_TAKEN' };
        const prepared = await preparePanelUser('owner', input.ownerEmail, input.ownerPassword || undefined);
        if (!prepared.ok) return prepared;
        owner = prepared.user;
      }
      return store.transaction(async (tx): Promise<NewAccountResult> => {
        // Checked again inside the transaction: another request may have taken the login
        // meanwhile. On PostgreSQL transactions run side by side: the login's key makes a
        // racing one wait for this one's COMMIT, then see its user (no unique violation).
        if (owner) await tx.serializeOn(`panel-login/${owner.login.toLowerCase()}`);
        if (owner && (await tx.panelUsers.findByLogin(owner.login))) return { ok: false, code: 'LOGIN_TAKEN' };
        const account = await tx.accounts.create({ name, plan, monthlyCredit });
        if (!owner) return { ok: true, account, owner: null };
        const created = await insertPanelUser(tx, owner, account.id);
        // Cannot happen after the check above in the same transaction; a throw undoes the account too.
        if (!created.ok) throw new Error(`owner not created: ${created.code}`);
        return { ok: true, account, owner: { login: created.user.login, generatedPassword: created.generatedPassword } };
      });
    },

    async setPlan(accountId, change) {
      const plan = parsePlan(change.plan);
      if (!plan) return { ok: false, code: 'INVALID_PLAN' };
      const credit = change.monthlyCredit === undefined ? undefined : parseMonthlyCredit(change.monthlyCredit);
      if (credit === undefined && change.monthlyCredit !== undefined) return { ok: false, code: 'INVALID_CREDIT' };
      const account = await store.transaction((tx) => tx.accounts.setPlan(accountId, plan, credit));
      return account ? { ok: true, account } : { ok: false, code: 'NO_ACCOUNT' };
    },

    async setDisabled(accountId, disabled) {
      const account = await store.transaction((tx) => tx.accounts.setDisabled(accountId, disabled));
      return account ? { ok: true, account } : { ok: false, code: 'NO_ACCOUNT' };
    },
  };
}
