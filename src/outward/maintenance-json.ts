import type { MaintenanceWindow } from '../store';
import { iso } from './iso';

/** `scheduled` before its start, `active` during it, `ended` after (docs/on-call.md "Maintenance windows"). */
export function windowState(w: Pick<MaintenanceWindow, 'startsAt' | 'endsAt'>, now: number): 'scheduled' | 'active' | 'ended' {
  return now < w.startsAt ? 'scheduled' : now < w.endsAt ? 'active' : 'ended';
}

/** The JSON of a maintenance window: the API's `window`, and `voice-alert maintenance … --json`. */
export function maintenanceJson(w: MaintenanceWindow, now: number) {
  return {
    id: w.id,
    account_id: w.accountId,
    start: iso(w.startsAt),
    end: iso(w.endsAt),
    reason: w.reason,
    match: w.matches,
    state: windowState(w, now),
    created_at: iso(w.createdAt),
    started_at: iso(w.startedAt),
  };
}

/** `maintenance create --json`: the window and the waiting calls it cancelled (when it starts at once). */
export function newMaintenanceJson(w: MaintenanceWindow, now: number, cancelledCallIds: string[]) {
  return { ...maintenanceJson(w, now), cancelled_call_ids: cancelledCallIds };
}

/** `maintenance delete --json`: the window, ended now. Fields may be added, never renamed. */
export function maintenanceDeletedJson(w: MaintenanceWindow, now: number) {
  return { ...maintenanceJson(w, now), deleted: true };
}
