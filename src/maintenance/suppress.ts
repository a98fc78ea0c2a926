import type { MaintenanceWindow } from '../store';
import { matchesAlert, parseMatch, type AlertFacts, type Match } from './match';

/** A stored window's matches; entries were validated when it was created (service.ts). */
export function matchesOf(w: Pick<MaintenanceWindow, 'matches'>): Match[] {
  return w.matches.map(parseMatch).filter((m): m is Match => m !== null);
}

/**
 * The window that suppresses this alert at `now`, or null (docs/on-call.md "Maintenance windows"):
 * the earliest started of `windows` under way at `now` whose matches cover it. `windows`
 * are the account's windows not ended when the request began, from the intake's lookups
 * (lookup-cache.ts): they are read again whenever the database changed, so a window created
 * on this appliance counts from the next request on, and one created on another appliance
 * within CROSS_NODE_STALENESS_MS (docs/high-availability.md).
 */
export function suppressingWindow(windows: readonly MaintenanceWindow[], alert: AlertFacts, now: number): MaintenanceWindow | null {
  for (const w of windows) {
    if (w.startsAt <= now && w.endsAt > now && matchesAlert(matchesOf(w), alert)) return w;
  }
  return null;
}
