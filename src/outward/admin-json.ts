import type { PanelUser } from '../store';
import { iso } from './iso';

/** `admin create --json`: the new administrator. Fields may be added, never renamed. */
export function adminCreatedJson(user: Pick<PanelUser, 'id' | 'login'>) {
  return { id: user.id, username: user.login, role: 'admin' };
}

/** `admin list --json`: one administrator, never a password or its hash. Fields may be added, never renamed. */
export function adminJson(user: Pick<PanelUser, 'id' | 'login' | 'createdAt'>) {
  return { id: user.id, username: user.login, role: 'admin', created_at: iso(user.createdAt) };
}

/** `admin passwd --json`. Fields may be added, never renamed. */
export function adminPasswordChangedJson(username: string) {
  return { username, role: 'admin', password_changed: true };
}

/** `owner create|list --json`: an account's panel login (an owner). Fields may be added, never renamed. */
export function ownerJson(user: Pick<PanelUser, 'id' | 'login' | 'accountId' | 'createdAt'>) {
  return { id: user.id, email: user.login, account_id: user.accountId, role: 'owner', created_at: iso(user.createdAt) };
}

/** `owner create` (generated) and `owner reset-password --json`: the password, shown only now. */
export function ownerPasswordJson(user: Pick<PanelUser, 'id' | 'login' | 'accountId' | 'createdAt'>, password: string) {
  return { ...ownerJson(user), password };
}
