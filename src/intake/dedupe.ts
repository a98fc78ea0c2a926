import { isInProgress } from '../call-model';
import type { AlertRecord, CallRecord, Store } from '../store';

/**
 * Which numbers of a keyed request need a new call (contract.md "Alerts" → Dedupe).
 * Runs inside the write transaction that queues the new calls, so of two copies racing
 * in one batch the second sees the first's alert and calls: one call, one credit.
 */
export interface DedupeDecision {
  /** The account's open alert of this key: new calls join it. null: a new alert opens. */
  alert: AlertRecord | null;
  /** Numbers to call now (and charge for), in the order sent. */
  fresh: string[];
  /** For each number not called again, the existing call that stands in for it, in the order sent. */
  deduplicatedCallIds: string[];
}

export function decideDedupe(store: Store, accountId: string, key: string, numbers: string[], now: number, windowMs: number): DedupeDecision {
  const alert = store.alerts.findOpen(accountId, key);
  // 0 disables dedupe; the open alert still keeps its identity (new calls join it).
  if (!alert || windowMs <= 0) return { alert, fresh: numbers, deduplicatedCallIds: [] };
  const lastByNumber = new Map<string, CallRecord>();
  for (const c of store.calls.ofAlert(alert.id)) lastByNumber.set(c.phoneNumber, c); // oldest first: the last wins
  const fresh: string[] = [];
  const deduplicatedCallIds: string[] = [];
  for (const n of numbers) {
    const last = lastByNumber.get(n);
    if (last && standsIn(last, now, windowMs)) deduplicatedCallIds.push(last.id);
    else fresh.push(n);
  }
  return { alert, fresh, deduplicatedCallIds };
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
