import { emitAlertEvents } from '../callbacks';
import { alertTransition, canMoveAlert, isSuppressed, type AlertState } from '../call-model';
import { periodOf } from '../credit';
import type { AlertRecord, CallRecord, Tx } from '../store';

/**
 * What happens to an alert and its calls when it closes (docs/http-api.md "Alerts: dedupe and
 * resolve" and "GET /api/alerts/{id}, …"). Each function runs inside the caller's transaction
 * (`store.transaction`, with its `tx` as `store` here), beside the change that caused it, so
 * an alert and its calls never disagree after a crash.
 */
export interface AlertLifecycleDeps {
  /** The caller's transaction (`store.transaction`'s `tx`), never the store itself. */
  store: Tx;
  /** credit.timezone: a refund goes back to the period the call was charged in. */
  timeZone: string;
}

/**
 * Ends every call of the alert that waits in the queue (new, or waiting to retry) as
 * `cancelled`; one that was never dialled gives its credit back. A call being dialled or
 * answered right now is left to the dialer (it checks the alert before a retry, and an
 * answered call is never cut off). Returns the ids cancelled.
 */
export async function cancelWaitingCalls(d: AlertLifecycleDeps, alertId: string, now: number, reason: string): Promise<string[]> {
  const cancelled: string[] = [];
  for (const call of await d.store.calls.ofAlert(alertId)) {
    if (call.state !== 'queued') continue;
    const moved = await d.store.calls.move(call.id, { from: 'queued', to: 'cancelled', at: now, attempt: call.attempts, reason, finished: true });
    if (!moved) continue;
    cancelled.push(call.id);
    if (call.attempts === 0 && call.charged) await refund(d, call);
  }
  return cancelled;
}

async function refund(d: AlertLifecycleDeps, call: CallRecord): Promise<void> {
  await d.store.usage.refund(call.accountId, periodOf(call.createdAt, d.timeZone), 1);
}

/** Moves an alert along an edge of the alert model; false when it cannot go there (closed by someone else first). */
async function close(
  d: AlertLifecycleDeps,
  alert: AlertRecord,
  to: Exclude<AlertState, 'open'>,
  now: number,
  extra: { reason?: string; by?: string } = {},
): Promise<boolean> {
  return (await closeAll(d, [alert], to, now, extra)).length === 1;
}

/**
 * close() for many alerts at once (a bundle's alerts settling): one statement for those in
 * each state, their callbacks after. Returns the ids that moved.
 */
async function closeAll(
  d: AlertLifecycleDeps,
  alerts: readonly AlertRecord[],
  to: Exclude<AlertState, 'open'>,
  now: number,
  extra: { reason?: string; by?: string } = {},
): Promise<string[]> {
  const moved: string[] = [];
  for (const from of new Set(alerts.map((a) => a.state))) {
    if (!canMoveAlert(from, to)) continue;
    const edge = alertTransition(from, to);
    const ids = alerts.filter((a) => a.state === from).map((a) => a.id);
    moved.push(...(await d.store.alerts.moveAll(ids, { from: edge.from, to, at: now, reason: extra.reason ?? null, acknowledgedBy: extra.by ?? null })));
  }
  // Outcome callbacks, in this same transaction (src/callbacks/events.ts).
  const movedIds = new Set(moved);
  await emitAlertEvents(d.store, `alert.${to}`, alerts.filter((a) => movedIds.has(a.id)), now);
  return moved;
}

export type CloseResult = { closed: boolean; alert: AlertRecord; cancelledCallIds: string[] };

/** Keypad 1, the API or the panel: the alert is acknowledged and everyone else's waiting calls end. */
export async function acknowledgeAlert(d: AlertLifecycleDeps, alert: AlertRecord, by: string, now: number): Promise<CloseResult> {
  const closed = await close(d, alert, 'acknowledged', now, { by, reason: `acknowledged by ${by}` });
  const cancelledCallIds = closed ? await cancelWaitingCalls(d, alert.id, now, `alert acknowledged by ${by}`) : [];
  return { closed, alert: (await d.store.alerts.get(alert.id))!, cancelledCallIds };
}

/** `status: resolved`, the API or the panel: no call is placed for it any more. Arguments in acknowledgeAlert's order. */
export async function resolveAlert(d: AlertLifecycleDeps, alert: AlertRecord, by: string, now: number): Promise<CloseResult> {
  const closed = await close(d, alert, 'resolved', now, { reason: `resolved by ${by}` });
  const cancelledCallIds = closed ? await cancelWaitingCalls(d, alert.id, now, 'alert resolved') : [];
  return { closed, alert: (await d.store.alerts.get(alert.id))!, cancelledCallIds };
}

/**
 * After their calls ended (one call, or a call and its bundle): each open alert whose every
 * call is over without anyone pressing 1 becomes `unacknowledged`. Not one whose calls a
 * maintenance window cancelled (still firing, it stays open for the next repeat), nor one
 * under a running escalation (its engine decides when nobody is left to call): the store's
 * allCallsEnded says which, in one read for all of them.
 */
export async function settleAlerts(d: AlertLifecycleDeps, alertIds: readonly string[], now: number): Promise<void> {
  const ended = (await d.store.alerts.allCallsEnded(alertIds)).filter((alert) => !isSuppressed(alert, now));
  // An alert that reached nobody had only its fallback's call: its reason keeps saying why
  // (docs/on-call.md "Nothing silently calls nobody"), never that its people were called.
  await closeAll(d, ended.filter((a) => !a.unroutable), 'unacknowledged', now, { reason: 'every call ended without an acknowledgement' });
  for (const a of ended.filter((x) => x.unroutable)) {
    await closeAll(d, [a], 'unacknowledged', now, { reason: `${a.unroutable}; the fallback was called, nobody pressed 1` });
  }
}

/** The escalation ran out of steps (or of credit): nobody acknowledged the alert. */
export function markUnacknowledged(d: AlertLifecycleDeps, alert: AlertRecord, now: number, reason: string): Promise<boolean> {
  return close(d, alert, 'unacknowledged', now, { reason });
}
