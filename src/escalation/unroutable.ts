import { markUnacknowledged } from '../alerts';
import { emitAlertEvent } from '../callbacks';
import { firstTarget, type CallTarget } from '../people';
import type { AlertRecord, Tx } from '../store';

/** The answer's `warning` for an alert that reached nobody (docs/on-call.md "Nothing silently calls nobody"). */
export const nobodyWarning = (why: string) => `Nobody to call: ${why}`;

/**
 * Who is called when nothing else resolves (`account set-fallback`), or null: the number, or
 * the person's first phone as they are now (their next phones follow when it fails, like any
 * person's: src/people/next-phone.ts). A fallback person with no phone reaches nobody.
 */
export async function fallbackTarget(tx: Pick<Tx, 'fallbacks' | 'people'>, accountId: string): Promise<CallTarget | null> {
  const f = await tx.fallbacks.get(accountId);
  if (!f) return null;
  if (f.personId === null) return f.phoneNumber ? { number: f.phoneNumber, person: null } : null;
  const person = await tx.people.get(f.personId);
  return person ? firstTarget(person) : null;
}

/** fallbackTarget's number alone. */
export async function fallbackNumber(tx: Pick<Tx, 'fallbacks' | 'people'>, accountId: string): Promise<string | null> {
  return (await fallbackTarget(tx, accountId))?.number ?? null;
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
