import { isFinal, type CallState } from '../call-model';
import type { Clock } from '../clock';
import { normalizePhoneNumber, type NumberForm } from '../phone';
import type { CallRecord, Person, PhoneCheck, Store, Tx } from '../store';

/**
 * Verification calls (docs/on-call.md "Verification"): one call to
 * a phone of a person that says who it is for and asks to press 1. Shape kept: a row of
 * `calls` with `verify = 1`, its person and phone index in person_id/person_phone (migration
 * 23), no alert, no credit (charged 0); the claim takes it before every alert call
 * (store/call-claim.ts), it is tried once (calls/run-claimed-call.ts) and never bundled. Its
 * end is written on the person's phone in the mover's transaction (recordVerification):
 * `last_check` always, `verified_at` when 1 was pressed.
 */

/** What a verification call's final state says about the number: ok only when 1 was pressed. */
export function checkOf(state: CallState): { ok: boolean; reason: string | null } {
  switch (state) {
    case 'acknowledged':
      return { ok: true, reason: null };
    case 'completed':
      return { ok: false, reason: 'no key' };
    case 'no_answer':
      return { ok: false, reason: 'no answer' };
    default:
      // busy, voicemail, rejected, failed, expired, cancelled: the state names it.
      return { ok: false, reason: state };
  }
}

/**
 * In the transaction that ended a verification call: its outcome on the person's phone
 * (`last_check`, and `verified_at` on a 1). Nothing when the person was deleted or that phone
 * no longer has the number called (changed meanwhile: a new number is not proven by the old).
 */
export async function recordVerification(tx: Tx, call: CallRecord, at: number): Promise<PhoneCheck | null> {
  // A hand-off call (verify-shaped) proves the hand-off, not the phone (docs/on-call.md "Hand-off calls").
  if (!call.verify || call.handoffId !== null || call.personId === null || !isFinal(call.state)) return null;
  const person = await tx.people.get(call.personId);
  const index = call.personPhone ?? 0;
  const phone = person?.phones[index];
  if (!person || !phone || phone.number !== call.phoneNumber) return null;
  const check: PhoneCheck = { at, ...checkOf(call.state) };
  const phones = person.phones.map((p, i) => (i === index ? { ...p, lastCheck: check, verifiedAt: check.ok ? at : p.verifiedAt } : p));
  await tx.people.update(person.id, { ...person, phones }, at);
  return check;
}

export type VerifyStart =
  | { ok: true; person: Person; calls: { id: string; number: string }[] }
  | { ok: false; code: 'person_not_found' }
  | { ok: false; code: 'invalid_person'; problem: string };

/**
 * Queues one verification call per phone of the person (or only `phone`, given as any
 * accepted form of one of theirs), uncharged. The dialer places them before any alert call.
 */
export async function queueVerification(
  d: { store: Store; clock: Clock; numberForms?: readonly NumberForm[] },
  accountId: string,
  idOrName: string,
  phone?: string,
): Promise<VerifyStart> {
  return d.store.transaction(async (tx): Promise<VerifyStart> => {
    const person = await tx.people.find(accountId, idOrName);
    if (!person) return { ok: false, code: 'person_not_found' };
    const wanted = phone === undefined ? null : (normalizePhoneNumber(phone.trim(), d.numberForms) ?? phone.trim());
    const phones = person.phones.map((p, i) => ({ number: p.number, index: i })).filter((p) => wanted === null || p.number === wanted);
    if (phones.length === 0) {
      return { ok: false, code: 'invalid_person', problem: wanted === null ? `${person.name} has no phone` : `phone: not a phone of ${person.name}: ${phone}` };
    }
    const ids = await tx.calls.enqueue(
      phones.map((p) => ({
        accountId,
        credentialId: null,
        source: 'test' as const,
        phoneNumber: p.number,
        message: `verification call for ${person.name}`,
        alertId: null,
        charged: false,
        person: { personId: person.id, phone: p.index },
        verify: true,
      })),
      d.clock(),
    );
    return { ok: true, person, calls: ids.map((id, i) => ({ id, number: phones[i]!.number })) };
  });
}

/** `person verify --json`: one line per number once its call ended; null while any still runs. */
export function verificationResults(calls: readonly CallRecord[]): { number: string; ok: boolean; reason: string | null }[] | null {
  if (calls.some((c) => !isFinal(c.state))) return null;
  return calls.map((c) => ({ number: c.phoneNumber, ...checkOf(c.state) }));
}
