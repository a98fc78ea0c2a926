import { cancelWaitingCalls } from '../alerts';
import type { MaintenanceWindow, Tx } from '../store';
import { matchesAlert } from './match';
import { matchesOf } from './suppress';

/** Open alerts looked at per start: far more than an account has open at once. */
const OPEN_ALERTS_LIMIT = 10_000;

export interface WindowStart {
  /** The open alerts it suppressed. */
  alertIds: string[];
  /** Their calls that were waiting (queued, or waiting to retry) and ended `cancelled`. */
  cancelledCallIds: string[];
}

/**
 * What a window's start does (docs/on-call.md "Maintenance windows"), inside the caller's
 * transaction: every open alert of the account it matches is marked suppressed until the window's
 * end; its waiting calls end `cancelled` (those never dialled give their credit back, as for a
 * resolve: alerts/lifecycle.ts) and its escalation stops. A call being dialled or ringing is
 * left to the dialer, which cancels it before the answer once it sees the alert suppressed
 * (calls/dialer.ts). A window already over when its start is carried out does nothing.
 */
export async function startWindow(tx: Tx, w: MaintenanceWindow, now: number, timeZone: string): Promise<WindowStart> {
  const out: WindowStart = { alertIds: [], cancelledCallIds: [] };
  if (w.endsAt <= now) return out;
  const matches = matchesOf(w);
  const lifecycle = { store: tx, timeZone };
  for (const alert of await tx.alerts.list({ accountId: w.accountId, state: 'open', limit: OPEN_ALERTS_LIMIT })) {
    if (!matchesAlert(matches, alert)) continue;
    await tx.maintenance.suppressAlert(alert.id, w.id, w.endsAt);
    out.cancelledCallIds.push(...(await cancelWaitingCalls(lifecycle, alert.id, now, `maintenance window ${w.id}`)));
    await tx.maintenance.dropEscalation(alert.id);
    out.alertIds.push(alert.id);
  }
  return out;
}
