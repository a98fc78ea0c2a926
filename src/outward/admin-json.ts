import type { PanelUser } from '../store';

/** `admin create --json`: the new administrator. Fields may be added, never renamed. */
export function adminCreatedJson(user: Pick<PanelUser, 'id' | 'login'>) {
  return { id: user.id, username: user.login, role: 'admin' };
}

/** `admin passwd --json`. Fields may be added, never renamed. */
export function adminPasswordChangedJson(username: string) {
  return { username, role: 'admin', password_changed: true };
}
