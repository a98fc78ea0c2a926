import { markUnacknowledged } from '../alerts';
import { emitAlertEvent } from '../callbacks';
import type { AlertRecord, Tx } from '../store';

/** The answer's `warning` for an alert that reached nobody (docs/on-call.md "Nothing silently calls nobody"). */
export const nobodyWarning = (why: string) => `Nobody to call: ${why}`;

/**
 * The number called when nothing else resolves (`account set-fallback`), or null. A person
 * (a later round, issue 45) will resolve to their first phone here.
 */
export async function fallbackNumber(tx: Pick<Tx, 'fallbacks'>, accountId: string): Promise<string | null> {
  return (await tx.fallbacks.get(accountId))?.phoneNumber ?? null;
}

/**
 * An alert that reached nobody, in the caller's transaction, beside the change: the alert
 * keeps why (its `unroutable`, the Overview's red line), the callback `alert.unroutable`
 * goes out, and, when no fallback call was queued for it, the alert ends `unacknowledged`
 * with that why as its reason: never "nobody pressed 1" when nobody was called. Its caller
 * counts voice_alert_alerts_unroutable_total once the transaction committed.
 */
export async function recordUnroutable(
  tx: Tx,
  alert: AlertRecord,
  why: string,
  now: number,
  o: { timeZone: string; fallback: { number: string; callIds: string[] } | null },
): Promise<void> {
  await tx.alerts.markUnroutable(alert.id, why);
  await emitAlertEvent(tx, 'alert.unroutable', { ...alert, unroutable: why }, now, {
    reason: why,
    fallback: o.fallback ? { number: o.fallback.number, call_ids: o.fallback.callIds } : null,
  });
  if (!o.fallback || o.fallback.callIds.length === 0) await markUnacknowledged({ store: tx, timeZone: o.timeZone }, alert, now, why);
}
