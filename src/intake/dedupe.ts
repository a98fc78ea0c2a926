import { isInProgress } from '../call-model';
import type { AlertRecord, CallRecord, Tx } from '../store';

/**
 * Which numbers of a keyed request need a new call, and which alert they join
 * (docs/http-api.md "Alerts: dedupe and resolve").
 * Runs inside the transaction that queues the new calls (on its `tx`), so of two copies
 * racing the second sees the first's alert and calls: one call, one credit.
 */
export interface DedupeDecision {
  /** The account's open alert of this key: new calls join it. null: a new alert opens. */
  alert: AlertRecord | null;
  /** The alert whose calls stand in for deduplicated numbers (the newest of the key, not resolved). */
  standing: AlertRecord | null;
  /** Numbers to call now (and charge for), in the order sent. */
  fresh: string[];
  /** For each number not called again, the existing call that stands in for it, in the order sent. */
  deduplicatedCallIds: string[];
}

/**
 * docs/http-api.md "Alerts: dedupe and resolve"'s "open" for dedupe is "not resolved": the newest
 * alert of the key, unless it was resolved, still stands for its numbers while their last call
 * waits, runs, or ended less than the window ago. So an alert acknowledged a minute ago (or one nobody answered)
 * is not called again by the monitor's next repeat; after the window it is, as a new alert,
 * since a closed alert never reopens (src/call-model/alert-states.ts).
 */
export async function decideDedupe(
  tx: Pick<Tx, 'calls'>,
  /** The newest alert of the request's key in its account (alerts.latestByKey), read in this transaction. */
  latest: AlertRecord | null,
  numbers: string[],
  now: number,
  windowMs: number,
): Promise<DedupeDecision> {
  const alert = latest?.state === 'open' ? latest : null;
  // 0 disables dedupe; an open alert still keeps its identity (new calls join it).
  if (!latest || latest.state === 'resolved' || windowMs <= 0) return { alert, standing: null, fresh: numbers, deduplicatedCallIds: [] };
  const lastByNumber = new Map<string, CallRecord>();
  for (const c of await tx.calls.ofAlert(latest.id)) {
    const seen = lastByNumber.get(c.phoneNumber);
    if (!seen || c.createdAt >= seen.createdAt) lastByNumber.set(c.phoneNumber, c);
  }
  const fresh: string[] = [];
  const deduplicatedCallIds: string[] = [];
  for (const n of numbers) {
    const last = lastByNumber.get(n);
    // An open alert's call ends `cancelled` only by a maintenance window's start: it stands in
    // for nobody, so the first repeat after the window calls (docs/on-call.md "Maintenance
    // windows").
    if (last && standsIn(last, now, windowMs) && !(alert && last.state === 'cancelled')) deduplicatedCallIds.push(last.id);
    else fresh.push(n);
  }
  return { alert, standing: latest, fresh, deduplicatedCallIds };
}

/**
 * A call stands in for a repeat while it is waiting (queued, also to retry), in progress, or
 * ended less than the window ago. Ended: `finishedAt`; a final call without one (written
 * before that column existed) counts from its last change.
 */
export function standsIn(call: CallRecord, now: number, windowMs: number): boolean {
  if (call.state === 'queued' || isInProgress(call.state)) return true;
  const endedAt = call.finishedAt ?? call.updatedAt;
  return now - endedAt < windowMs;
}
