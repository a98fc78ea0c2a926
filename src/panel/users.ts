import type { Clock } from '../clock';
import type { PanelRole, PanelUser, Store, Tx } from '../store';
import { generatePassword, hashPassword, passwordProblem } from './passwords';

export type CreateUserResult =
  | { ok: true; user: PanelUser; /** Set when it was generated: show it once. */ generatedPassword: string | null }
  | { ok: false; code: 'LOGIN_TAKEN' | 'INVALID_LOGIN' | 'PASSWORD_TOO_SHORT' | 'NO_ACCOUNT' };

/** A new user whose login and password passed the rules, hashed, not yet written. */
export interface PreparedUser {
  login: string;
  role: PanelRole;
  passwordHash: string;
  generatedPassword: string | null;
}

export type PrepareUserResult = { ok: true; user: PreparedUser } | { ok: false; code: 'INVALID_LOGIN' | 'PASSWORD_TOO_SHORT' };

const USERNAME = /^[A-Za-z0-9._@-]{3,64}$/;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,}$/;

/** Administrators log in with a user name, owners with their e-mail address. */
export function loginProblem(role: PanelRole, login: string): 'INVALID_LOGIN' | null {
  return (role === 'admin' ? USERNAME : EMAIL).test(login.trim()) ? null : 'INVALID_LOGIN';
}

/**
 * Checks a new user's login and password and hashes the password (argon2id, slow on
 * purpose) before any write, so the write itself stays short. `password` undefined:
 * one is generated and returned once (owners; an administrator always chooses theirs).
 */
export async function preparePanelUser(role: PanelRole, login: string, password?: string): Promise<PrepareUserResult> {
  const trimmed = login.trim();
  if (loginProblem(role, trimmed)) return { ok: false, code: 'INVALID_LOGIN' };
  const generatedPassword = password === undefined ? generatePassword() : null;
  const chosen = password ?? generatedPassword!;
  if (passwordProblem(chosen)) return { ok: false, code: 'PASSWORD_TOO_SHORT' };
  return { ok: true, user: { login: trimmed, role, passwordHash: await hashPassword(chosen), generatedPassword } };
}

/**
 * Writes a prepared user; call it inside `store.transaction` with its `tx`, where the checks
 * and the insert cannot be interleaved with another write. Logins are unique regardless of case.
 */
export async function insertPanelUser(tx: Tx, prepared: PreparedUser, accountId: string | null): Promise<CreateUserResult> {
  if (accountId && !(await tx.accounts.get(accountId))) return { ok: false, code: 'NO_ACCOUNT' };
  if (await tx.panelUsers.findByLogin(prepared.login)) return { ok: false, code: 'LOGIN_TAKEN' };
  const { login, role, passwordHash, generatedPassword } = prepared;
  return { ok: true, user: await tx.panelUsers.create({ login, role, accountId, passwordHash }), generatedPassword };
}

/**
 * Creating panel users: administrators and owners (the panel users of one account), from the
 * CLI or the panel. Both go through here, so the rules are the same.
 */
export interface PanelUsersService {
  createAdmin(username: string, password: string): Promise<CreateUserResult>;
  /** `password` empty or undefined: one is generated and returned once. */
  createOwner(accountId: string, email: string, password?: string): Promise<CreateUserResult>;
  /** Remembers the panel language this person chose (docs/panel.md); false when there is no such user. */
  setLanguage(userId: string, language: string): Promise<boolean>;
  /** The account's owners (its panel logins), oldest first. */
  owners(accountId: string): Promise<PanelUser[]>;
  /** Every administrator, oldest first: the Administrators page and `admin list`. */
  admins(): Promise<PanelUser[]>;
}

export function createPanelUsersService(store: Store, _clock: Clock): PanelUsersService {
  const create = async (role: PanelRole, login: string, accountId: string | null, password: string | undefined) => {
    const prepared = await preparePanelUser(role, login, password);
    if (!prepared.ok) return prepared;
    return store.transaction((tx) => insertPanelUser(tx, prepared.user, accountId));
  };
  return {
    createAdmin: (username, password) => create('admin', username, null, password),
    createOwner: (accountId, email, password) => create('owner', email, accountId, password || undefined),
    setLanguage: (userId, language) => store.transaction((tx) => tx.panelUsers.setLanguage(userId, language)),
    owners: async (accountId) => (await store.panelUsers.listForAccount(accountId)).filter((u) => u.role === 'owner'),
    admins: () => store.panelUsers.listAdmins(),
  };
}
