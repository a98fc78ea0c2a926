import type { PanelUser } from '../store';

/**
 * What a panel user may see. An administrator sees every account; an owner only their own.
 * Callers answer 404 (not 403) for another owner's account, so ids cannot be probed.
 */
export function canSeeAccount(user: PanelUser, accountId: string): boolean {
  return user.role === 'admin' || user.accountId === accountId;
}

export function isAdmin(user: PanelUser): boolean {
  return user.role === 'admin';
}
