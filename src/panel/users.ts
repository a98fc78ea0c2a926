import type { Clock } from '../clock';
import type { PanelUser, Store } from '../store';
import { generatePassword, hashPassword, passwordProblem } from './passwords';

export type CreateUserResult =
  | { ok: true; user: PanelUser; /** Set when it was generated: show it once. */ generatedPassword: string | null }
  | { ok: false; code: 'LOGIN_TAKEN' | 'INVALID_LOGIN' | 'PASSWORD_TOO_SHORT' | 'NO_ACCOUNT' };

const USERNAME = /^[A-Za-z0-9._@-]{3,64}$/;
export const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,}$/;

/**
 * Creating panel users: administrators from the CLI, owners from the CLI or the panel.
 * Logins are unique regardless of case.
 */
export interface PanelUsersService {
  createAdmin(username: string, password: string): Promise<CreateUserResult>;
  /** `password` empty or undefined: one is generated and returned once. */
  createOwner(accountId: string, email: string, password?: string): Promise<CreateUserResult>;
}

export function createPanelUsersService(store: Store, _clock: Clock): PanelUsersService {
  const create = async (login: string, role: 'admin' | 'owner', accountId: string | null, given: string | undefined) => {
    const generatedPassword = given ? null : generatePassword();
    const password = given || generatedPassword!;
    if (passwordProblem(password)) return { ok: false, code: 'PASSWORD_TOO_SHORT' } as const;
    const passwordHash = await hashPassword(password);
    return store.writes.run((): CreateUserResult => {
      if (accountId && !store.accounts.get(accountId)) return { ok: false, code: 'NO_ACCOUNT' };
      if (store.panelUsers.findByLogin(login)) return { ok: false, code: 'LOGIN_TAKEN' };
      const user = store.panelUsers.create({ login, role, accountId, passwordHash });
      return { ok: true, user, generatedPassword };
    });
  };
  return {
    createAdmin(username, password) {
      const login = username.trim();
      if (!USERNAME.test(login)) return Promise.resolve({ ok: false, code: 'INVALID_LOGIN' });
      return create(login, 'admin', null, password);
    },
    createOwner(accountId, email, password) {
      const login = email.trim();
      if (!EMAIL.test(login)) return Promise.resolve({ ok: false, code: 'INVALID_LOGIN' });
      return create(login, 'owner', accountId, password);
    },
  };
}
