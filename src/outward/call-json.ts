import type { Store } from '../store';
import type { CallEvent, CallRecord } from '../store';
import { iso } from './iso';

/**
 * The one JSON shape of a call's status: the `call` field of GET /api/calls/:id and what
 * `voice-alert calls show --json` prints. Fields may be added, never renamed (docs/http-api.md).
 */
export function callStatusJson(c: CallRecord, events: CallEvent[]) {
  return {
    id: c.id,
    account_id: c.accountId,
    phone_number: c.phoneNumber,
    source: c.source,
    state: c.state,
    attempts: c.attempts,
    created_at: iso(c.createdAt),
    updated_at: iso(c.updatedAt),
    next_attempt_at: c.state === 'queued' ? iso(c.runAfter) : null,
    answered_at: iso(c.answeredAt),
    finished_at: iso(c.finishedAt),
    last_sip_code: c.lastSipCode,
    last_reason: c.lastReason,
    acknowledged: c.acknowledgedAt !== null,
    acknowledged_at: iso(c.acknowledgedAt),
    /** The alert this call is for (GET /api/alerts/{id}). */
    alert_id: c.alertId,
    /** The call of the same number it was spoken in (per-number bundling); null: its own call. */
    bundled_into: c.bundledInto,
    /** The person the call reaches (docs/on-call.md "People"): their id and which phone (0: the first); null: a bare number. */
    person: personJson(c),
    /** docs/telephony.md "Voicemail detection": human | machine | unknown, null before an answer. */
    answered_by: c.answeredBy,
    amd_reason: c.amdReason,
    events: events.map((e) => ({
      at: iso(e.at),
      attempt: e.attempt,
      from: e.from,
      to: e.to,
      sip_code: e.sipCode,
      reason: e.reason,
      trunk: e.trunk,
      answered_by: e.answeredBy,
      amd_reason: e.amdReason,
    })),
  };
}

export type CallStatus = ReturnType<typeof callStatusJson>;

/** A call's status by id, or null when there is no such call. */
export async function callStatusOf(store: Store, callId: string): Promise<CallStatus | null> {
  const call = await store.calls.get(callId);
  return call ? callStatusJson(call, await store.calls.events(call.id)) : null;
}

/**
 * A call's status for the account that owns it. Another account's call is null, exactly
 * like a call that does not exist, so ids cannot be probed across accounts.
 */
export async function ownCallStatus(store: Store, accountId: string, callId: string): Promise<CallStatus | null> {
  const call = await store.calls.getInAccount(accountId, callId);
  return call ? callStatusJson(call, await store.calls.events(call.id)) : null;
}

/** One line of `voice-alert calls list --json`: the status without its events and times of each step. */
export function callListJson(c: CallRecord) {
  return {
    id: c.id,
    account_id: c.accountId,
    phone_number: c.phoneNumber,
    state: c.state,
    attempts: c.attempts,
    source: c.source,
    created_at: iso(c.createdAt),
    updated_at: iso(c.updatedAt),
    last_sip_code: c.lastSipCode,
    last_reason: c.lastReason,
    acknowledged: c.acknowledgedAt !== null,
    person: personJson(c),
    answered_by: c.answeredBy,
  };
}

/** A call's `person`: `{"id": "per_…", "phone": 0}`, or null for a bare number. */
export function personJson(c: Pick<CallRecord, 'personId' | 'personPhone'>) {
  return c.personId ? { id: c.personId, phone: c.personPhone ?? 0 } : null;
}

/** The `call` of a `call.*` callback (docs/on-call.md "Callbacks"). */
export function callbackCallJson(c: CallRecord) {
  return { id: c.id, number: c.phoneNumber, state: c.state, attempts: c.attempts, sip_code: c.lastSipCode, reason: c.lastReason, person: personJson(c), answered_by: c.answeredBy, amd_reason: c.amdReason };
}
