import { emitAlertEvent } from '../callbacks';
import { alertTransition, isFinal, type AlertState } from '../call-model';
import { periodOf } from '../credit';
import type { AlertRecord, CallRecord, Store } from '../store';

/**
 * What happens to an alert and its calls when it closes (contract.md "Alerts"). Each
 * function runs inside the caller's write transaction (store.writes.run), beside the change
 * that caused it, so an alert and its calls never disagree after a crash.
 */
export interface AlertLifecycleDeps {
  store: Store;
  /** credit.timezone: a refund goes back to the period the call was charged in. */
  timeZone: string;
}

/**
 * Ends every call of the alert that waits in the queue (new, or waiting to retry) as
 * `cancelled`; one that was never dialled gives its credit back. A call being dialled or
 * answered right now is left to the dialer (it checks the alert before a retry, and an
 * answered call is never cut off). Returns the ids cancelled.
 */
export function cancelWaitingCalls(d: AlertLifecycleDeps, alertId: string, now: number, reason: string): string[] {
  const cancelled: string[] = [];
  for (const call of d.store.calls.ofAlert(alertId)) {
    if (call.state !== 'queued') continue;
    const moved = d.store.calls.move(call.id, { from: 'queued', to: 'cancelled', at: now, attempt: call.attempts, reason, finished: true });
    if (!moved) continue;
    cancelled.push(call.id);
    if (call.attempts === 0 && call.charged) refund(d, call);
  }
  return cancelled;
}

function refund(d: AlertLifecycleDeps, call: CallRecord): void {
  d.store.usage.refund(call.accountId, periodOf(call.createdAt, d.timeZone), 1);
}

/** Moves an open alert; false when it was already closed (by someone else first). */
function close(d: AlertLifecycleDeps, alert: AlertRecord, to: Exclude<AlertState, 'open'>, now: number, extra: { reason?: string; by?: string } = {}): boolean {
  if (alert.state !== 'open') return false;
  alertTransition(alert.state, to);
  const moved = d.store.alerts.move(alert.id, { from: 'open', to, at: now, reason: extra.reason ?? null, acknowledgedBy: extra.by ?? null });
  // Outcome callback, in this same transaction (src/callbacks/events.ts).
  if (moved) emitAlertEvent(d.store, `alert.${to}`, d.store.alerts.get(alert.id)!, now);
  return moved;
}

export type CloseResult = { closed: boolean; alert: AlertRecord; cancelledCallIds: string[] };

/** Keypad 1, the API or the panel: the alert is acknowledged and everyone else's waiting calls end. */
export function acknowledgeAlert(d: AlertLifecycleDeps, alert: AlertRecord, by: string, now: number): CloseResult {
  const closed = close(d, alert, 'acknowledged', now, { by, reason: `acknowledged by ${by}` });
  const cancelledCallIds = closed ? cancelWaitingCalls(d, alert.id, now, `alert acknowledged by ${by}`) : [];
  return { closed, alert: d.store.alerts.get(alert.id)!, cancelledCallIds };
}

/** `status: resolved`, the API or the panel: no call is placed for it any more. */
export function resolveAlert(d: AlertLifecycleDeps, alert: AlertRecord, now: number, by = 'resolve request'): CloseResult {
  const closed = close(d, alert, 'resolved', now, { reason: `resolved by ${by}` });
  const cancelledCallIds = closed ? cancelWaitingCalls(d, alert.id, now, 'alert resolved') : [];
  return { closed, alert: d.store.alerts.get(alert.id)!, cancelledCallIds };
}

/**
 * After one of its calls ended: an open alert whose every call is over without anyone
 * pressing 1 becomes `unacknowledged`.
 */
export function settleAlert(d: AlertLifecycleDeps, alertId: string, now: number): void {
  const alert = d.store.alerts.get(alertId);
  if (!alert || alert.state !== 'open') return;
  // Under a policy, the escalation engine decides when nobody is left to call.
  if (d.store.escalations.get(alertId)?.state === 'running') return;
  const calls = d.store.calls.ofAlert(alertId);
  if (calls.length === 0 || !calls.every((c) => isFinal(c.state))) return;
  close(d, alert, 'unacknowledged', now, { reason: 'every call ended without an acknowledgement' });
}

/** The escalation ran out of steps (or of credit): nobody acknowledged the alert. */
export function markUnacknowledged(d: AlertLifecycleDeps, alert: AlertRecord, now: number, reason: string): boolean {
  return close(d, alert, 'unacknowledged', now, { reason });
}
