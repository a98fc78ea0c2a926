import type { PanelRole, Store } from '../store';
import type { LoginService } from './login';
import { generatePassword, hashPassword, passwordProblem } from './passwords';

export type ChangePasswordResult =
  | { ok: true }
  | { ok: false; code: 'WRONG_PASSWORD' | 'PASSWORD_TOO_SHORT' | 'NO_USER' }
  | { ok: false; code: 'TOO_MANY_ATTEMPTS'; retryAfterS: number };

export type ResetPasswordResult = { ok: true; login: string; password: string } | { ok: false; code: 'NO_USER' };

/** `OWN_PASSWORD`: one's own is changed with the current one (`change`), never reset. */
export type ResetAdminResult = ResetPasswordResult | { ok: false; code: 'OWN_PASSWORD' };

export type SetPasswordResult = { ok: true } | { ok: false; code: 'NO_USER' | 'PASSWORD_TOO_SHORT' };

/**
 * Changing passwords after a user exists. Whatever the way, the user's other sessions end:
 * a password is changed because it may be known to someone else, and that someone may be
 * logged in with it right now.
 */
export interface PasswordChanges {
  /**
   * A user changes their own password. The current one is checked like a login (counted and
   * slowed by the login throttling), so a session left open cannot be used to guess it. The
   * session `keepToken` stays; the user's others end.
   */
  change(input: { userId: string; current: string; next: string; ip: string; keepToken: string }): Promise<ChangePasswordResult>;
  /** An administrator resets an owner's password: a new one is generated and returned once. Owners only. */
  resetOwner(userId: string): Promise<ResetPasswordResult>;
  /**
   * An administrator (`byUserId`) resets another administrator's lost password in the panel: a
   * new one is generated and returned once. Administrators only, and never `byUserId` itself:
   * a session left open MUST NOT change its own password without the current one.
   */
  resetAdmin(userId: string, byUserId: string): Promise<ResetAdminResult>;
  /** `admin passwd` (CLI, on the server): sets an administrator's password by login, a lost one or one's own. */
  setAdmin(login: string, password: string): Promise<SetPasswordResult>;
}

/** `login` checks the current password in `change`; the CLI, which only calls `setAdmin`, has none. */
export function createPasswordChanges(store: Store, login?: Pick<LoginService, 'login'>): PasswordChanges {
  // The write: the new hash, and every other session of the user ends with it.
  const write = (userId: string, hash: string, keepToken?: string) =>
    store.transaction(async (tx) => {
      if (!(await tx.panelUsers.setPasswordHash(userId, hash))) return false;
      await tx.panelSessions.deleteForUser(userId, keepToken);
      return true;
    });
  // A reset: a generated password, returned once; only a user of `role` is found.
  const reset = async (userId: string, role: PanelRole): Promise<ResetPasswordResult> => {
    const user = await store.panelUsers.get(userId);
    if (!user || user.role !== role) return { ok: false, code: 'NO_USER' };
    const password = generatePassword();
    return (await write(userId, await hashPassword(password))) ? { ok: true, login: user.login, password } : { ok: false, code: 'NO_USER' };
  };
  return {
    async change({ userId, current, next, ip, keepToken }) {
      const user = await store.panelUsers.get(userId);
      if (!user) return { ok: false, code: 'NO_USER' };
      if (!login) throw new Error('createPasswordChanges: change needs the login service');
      const checked = await login.login(user.login, current, ip);
      if (!checked.ok) return checked.code === 'TOO_MANY_ATTEMPTS' ? checked : { ok: false, code: 'WRONG_PASSWORD' };
      if (checked.user.id !== userId) return { ok: false, code: 'WRONG_PASSWORD' };
      if (passwordProblem(next)) return { ok: false, code: 'PASSWORD_TOO_SHORT' };
      return (await write(userId, await hashPassword(next), keepToken)) ? { ok: true } : { ok: false, code: 'NO_USER' };
    },
    resetOwner: (userId) => reset(userId, 'owner'),
    async resetAdmin(userId, byUserId) {
      if (userId === byUserId) return { ok: false, code: 'OWN_PASSWORD' };
      return reset(userId, 'admin');
    },
    async setAdmin(loginName, password) {
      const user = await store.panelUsers.findByLogin(loginName.trim());
      if (!user || user.role !== 'admin') return { ok: false, code: 'NO_USER' };
      if (passwordProblem(password)) return { ok: false, code: 'PASSWORD_TOO_SHORT' };
      return (await write(user.id, await hashPassword(password))) ? { ok: true } : { ok: false, code: 'NO_USER' };
    },
  };
}
