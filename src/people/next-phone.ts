import type { CallState } from '../call-model';
import { periodOf } from '../credit';
import type { CallRecord, Tx } from '../store';

/**
 * The ends of a call that did not reach the person (docs/on-call.md "People": phones in order):
 * their next phone is called at once. A message left on a voicemail is one of them
 * (docs/telephony.md "Voicemail detection": it counts as not acknowledged).
 */
const UNREACHED: ReadonlySet<CallState> = new Set<CallState>(['busy', 'no_answer', 'rejected', 'failed', 'voicemail']);

/**
 * Whether a call's move means its person was not reached: a final busy/no answer/rejected/
 * failed/voicemail, or the same outcome sent back to the queue to be retried (`queued` from an attempt;
 * not our own shutdown handing the call back, which refunds the attempt).
 */
export function leftUnreached(to: CallState, o: { retried: boolean }): boolean {
  return UNREACHED.has(to) || (to === 'queued' && o.retried);
}

/**
 * In the mover's transaction, for each call of a person that just ended unreached: their next
 * phone, as the person is now, queued at once in the same escalation step (same alert and
 * escalation ordinal, so the step waits for it as for its other calls) and charged one credit
 * like any call. Once per phone and step: a retry of the first phone failing again queues
 * nothing new (its own retries come after the person's last phone). Nothing when the alert
 * closed, the person has no further phone or was deleted, or the credit ran out. Must run
 * before the alert is settled in the same transaction, so the alert waits for the new call.
 * Returns the ids queued.
 */
export async function queueNextPhones(tx: Tx, calls: readonly CallRecord[], o: { now: number; timeZone: string }): Promise<string[]> {
  const queued: string[] = [];
  for (const c of calls) {
    if (c.personId === null || c.alertId === null) continue;
    const alert = await tx.alerts.get(c.alertId);
    if (!alert || alert.state !== 'open') continue;
    const person = await tx.people.get(c.personId);
    const next = (c.personPhone ?? 0) + 1;
    const phone = person?.phones[next];
    if (!person || !phone) continue;
    const step = (await tx.calls.ofAlert(c.alertId)).filter((s) => s.personId === c.personId && s.escalationOrdinal === c.escalationOrdinal);
    if (step.some((s) => (s.personPhone ?? 0) >= next)) continue;
    const account = await tx.accounts.get(c.accountId);
    if (!account || !(await tx.usage.tryCharge(account.id, periodOf(o.now, o.timeZone), 1, account.monthlyCredit))) continue;
    queued.push(
      ...(await tx.calls.enqueue(
        [
          {
            accountId: c.accountId,
            credentialId: c.credentialId,
            source: c.source,
            phoneNumber: phone.number,
            message: c.message,
            alertId: c.alertId,
            escalationOrdinal: c.escalationOrdinal,
            person: { personId: person.id, phone: next },
          },
        ],
        o.now,
      )),
    );
  }
  return queued;
}
