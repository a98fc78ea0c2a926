import { IN_PROGRESS_STATES, type AmdReason, type AnsweredBy, type CallState } from '../call-model';
import { sqlList } from './sql-list';

// A call as the store keeps it (CallRow, a `calls` row) and as the program uses it
// (CallRecord), and the one mapping between them.

/** `heartbeat`, `handoff`: raised by the appliance itself (docs/on-call.md "Heartbeats", "Hand-off calls"). */
export type CallSource = 'api' | 'webhook' | 'test' | 'heartbeat' | 'handoff';

/** The states a worker holds under a lease, as SQL (from the call model, never retyped). */
export const IN_PROGRESS_SQL = sqlList(IN_PROGRESS_STATES);

export interface CallRecord {
  id: string;
  accountId: string;
  credentialId: string | null;
  source: CallSource;
  phoneNumber: string;
  message: string;
  state: CallState;
  attempts: number;
  runAfter: number;
  leaseUntil: number | null;
  createdAt: number;
  updatedAt: number;
  lastSipCode: number | null;
  lastReason: string | null;
  acknowledgedAt: number | null;
  answeredAt: number | null;
  finishedAt: number | null;
  /** The alert this call is for (every call made since migration 5 has one). */
  alertId: string | null;
  /** Spoken in that call of the same number instead of its own (per-number pacing). */
  bundledInto: string | null;
  /** Queuing it took one credit. */
  charged: boolean;
  /** The escalation step that placed it, counted across rounds from 1; 0: no escalation. */
  escalationOrdinal: number;
  /** The person the call reaches (docs/on-call.md "People"); null: a bare number. */
  personId: string | null;
  /** Which of the person's phones it is (0: the first); null for a bare number. */
  personPhone: number | null;
  /** Who answered the latest answered attempt (docs/telephony.md "Voicemail detection"); null before an answer. */
  answeredBy: AnsweredBy | null;
  amdReason: AmdReason | null;
  /** A verification call (docs/on-call.md "Verification"): asks its person to press 1 for this phone. */
  verify: boolean;
  /** With `verify`: the hand-off this call asks to confirm (docs/on-call.md "Hand-off calls"); null: any other call. */
  handoffId: string | null;
}

/** A `calls` row as SQLite returns it (`SELECT *`). */
export interface CallRow {
  id: string;
  account_id: string;
  credential_id: string | null;
  source: CallSource;
  phone_number: string;
  message: string;
  state: CallState;
  attempts: number;
  run_after: number;
  lease_until: number | null;
  created_at: number;
  updated_at: number;
  last_sip_code: number | null;
  last_reason: string | null;
  acknowledged_at: number | null;
  answered_at: number | null;
  finished_at: number | null;
  alert_id: string | null;
  bundled_into: string | null;
  charged: number;
  escalation_ordinal: number;
  person_id?: string | null;
  person_phone?: number | null;
  answered_by?: AnsweredBy | null;
  amd_reason?: AmdReason | null;
  verify?: number | null;
  handoff_id?: string | null;
}

/** The one mapping from a row to a CallRecord: a new column is added here only. */
export function toCall(r: CallRow): CallRecord {
  return {
    id: r.id,
    accountId: r.account_id,
    credentialId: r.credential_id,
    source: r.source,
    phoneNumber: r.phone_number,
    message: r.message,
    state: r.state,
    attempts: r.attempts,
    runAfter: r.run_after,
    leaseUntil: r.lease_until,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    lastSipCode: r.last_sip_code,
    lastReason: r.last_reason,
    acknowledgedAt: r.acknowledged_at,
    answeredAt: r.answered_at ?? null,
    finishedAt: r.finished_at ?? null,
    alertId: r.alert_id ?? null,
    bundledInto: r.bundled_into ?? null,
    charged: r.charged === 1,
    escalationOrdinal: r.escalation_ordinal ?? 0,
    personId: r.person_id ?? null,
    personPhone: r.person_phone === null || r.person_phone === undefined ? null : Number(r.person_phone),
    answeredBy: r.answered_by ?? null,
    amdReason: r.amd_reason ?? null,
    verify: Number(r.verify ?? 0) === 1,
    handoffId: r.handoff_id ?? null,
  };
}
