import { resolveAlert } from '../alerts';
import type { Tx } from '../store';

/**
 * A 1 on a hand-off call (docs/on-call.md "Hand-off calls"), in the call mover's transaction
 * beside the call's `acknowledged` edge: the hand-off is confirmed, and the
 * `handoff:<schedule>` alert raised for it, if any, is resolved ("a later 1 resolves it"),
 * its waiting calls to the outgoing person cancelled. Nothing when the hand-off no longer
 * waits for a 1 (confirmed already, superseded by the next hand-off, given up).
 */
export async function confirmHandoff(tx: Tx, handoffId: string, by: string, at: number, timeZone: string): Promise<{ alertResolved: string | null } | null> {
  const h = await tx.handoffs.confirm(handoffId, at);
  if (!h) return null;
  const alert = h.alertId ? await tx.alerts.get(h.alertId) : null;
  if (!alert || alert.state === 'resolved') return { alertResolved: null };
  await resolveAlert({ store: tx, timeZone }, alert, `hand-off confirmed by ${by}`, at);
  return { alertResolved: alert.id };
}
