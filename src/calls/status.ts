import type { CallEvent, CallRecord } from '../store/calls';
import type { Store } from '../store';
import { secretMatches } from '../intake/credential-check';
import { verifySignature, type SignatureHeaders } from '../intake/signature';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The one JSON shape of a call's status: GET /api/calls/:id and `calls show --json`. */
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
    events: events.map((e) => ({ at: iso(e.at), attempt: e.attempt, from: e.from, to: e.to, sip_code: e.sipCode, reason: e.reason })),
  };
}

export type StatusResult =
  | { code: 'FOUND'; call: ReturnType<typeof callStatusJson> }
  | { code: 'MISSING_CREDENTIALS' | 'INVALID_API_CREDENTIALS' | 'INVALID_SIGNATURE' | 'NOT_FOUND' };

export interface StatusRequest {
  callId: string;
  apiKey: string | null;
  apiSecret: string | null;
  /** Instead of the secret: HMAC over `<timestamp>.<request path>` (a GET has no body). */
  signature: SignatureHeaders;
  path: string;
}

/**
 * A call's status for the account that owns it. Another account's call answers NOT_FOUND,
 * exactly like a call that does not exist, so ids cannot be probed across accounts.
 */
export function callStatus(store: Store, now: number, r: StatusRequest): StatusResult {
  if (!r.apiKey || (!r.apiSecret && !r.signature.signature)) return { code: 'MISSING_CREDENTIALS' };
  const cred = store.credentials.findByApiKey(r.apiKey);
  if (!cred) return { code: 'INVALID_API_CREDENTIALS' };
  if (r.apiSecret) {
    if (!secretMatches(cred, r.apiSecret)) return { code: 'INVALID_API_CREDENTIALS' };
  } else {
    const secret = store.credentials.apiSecretOf(cred.id);
    if (!secret || !verifySignature(secret, r.signature, new TextEncoder().encode(r.path), now)) return { code: 'INVALID_SIGNATURE' };
  }
  const call = store.calls.get(r.callId);
  if (!call || call.accountId !== cred.accountId) return { code: 'NOT_FOUND' };
  return { code: 'FOUND', call: callStatusJson(call, store.calls.events(call.id)) };
}
