import type { MaintenanceWindow, Tx } from '../store';
import { matchesAlert, parseMatch, type AlertFacts, type Match } from './match';

/** A stored window's matches; entries were validated when it was created (service.ts). */
export function matchesOf(w: Pick<MaintenanceWindow, 'matches'>): Match[] {
  return w.matches.map(parseMatch).filter((m): m is Match => m !== null);
}

/**
 * The window that suppresses this alert at `now`, or null (README "Maintenance windows"):
 * the earliest started of the account's windows under way whose matches cover it. Read in
 * the transaction that accepts the request (enqueue.ts), so a window created before it
 * committed is seen.
 */
export async function suppressingWindow(
  tx: Pick<Tx, 'maintenance'>,
  accountId: string,
  alert: AlertFacts,
  now: number,
): Promise<MaintenanceWindow | null> {
  for (const w of await tx.maintenance.activeAt(accountId, now)) {
    if (matchesAlert(matchesOf(w), alert)) return w;
  }
  return null;
}
