import type { Database } from 'bun:sqlite';
import type { CallState } from '../calls/states';
import { newId } from './ids';

export type CallSource = 'api' | 'webhook' | 'test';

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
}

interface CallRow {
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
}

function toCall(r: CallRow): CallRecord {
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
  };
}

export interface NewCall {
  accountId: string;
  credentialId: string | null;
  source: CallSource;
  phoneNumber: string;
  message: string;
}

export interface CallsStore {
  /** Inserts queued calls; run inside the transaction that charges their credit. */
  enqueue(calls: NewCall[], now: number): string[];
  get(id: string): CallRecord | null;
  list(filter?: { accountId?: string; limit?: number }): CallRecord[];
  /**
   * Takes the next call that is due, or whose lease ran out (a crashed worker),
   * with one UPDATE … RETURNING so two workers never hold the same call.
   * The claim counts as an attempt.
   */
  claim(now: number, leaseMs: number): CallRecord | null;
}

export function createCallsStore(db: Database): CallsStore {
  return {
    enqueue(calls, now) {
      const insert = db.query(
        `INSERT INTO calls (id, account_id, credential_id, source, phone_number, message, state, attempts,
                            run_after, created_at, updated_at)
         VALUES ($id, $account, $cred, $source, $phone, $message, 'queued', 0, $now, $now, $now)`,
      );
      return calls.map((c) => {
        const id = newId('call');
        insert.run({
          id,
          account: c.accountId,
          cred: c.credentialId,
          source: c.source,
          phone: c.phoneNumber,
          message: c.message,
          now,
        });
        return id;
      });
    },
    get(id) {
      const row = db.query('SELECT * FROM calls WHERE id = $id').get({ id }) as CallRow | null;
      return row ? toCall(row) : null;
    },
    list({ accountId, limit = 100 } = {}) {
      const rows = accountId
        ? db
            .query('SELECT * FROM calls WHERE account_id = $a ORDER BY created_at DESC, id LIMIT $limit')
            .all({ a: accountId, limit })
        : db.query('SELECT * FROM calls ORDER BY created_at DESC, id LIMIT $limit').all({ limit });
      return (rows as CallRow[]).map(toCall);
    },
    claim(now, leaseMs) {
      const row = db
        .query(
          `UPDATE calls SET state = 'dialing', lease_until = $lease, attempts = attempts + 1, updated_at = $now
           WHERE id = (
             SELECT id FROM calls
             WHERE (state = 'queued' AND run_after <= $now)
                OR (state IN ('dialing', 'ringing', 'answered') AND lease_until < $now)
             ORDER BY run_after, created_at LIMIT 1)
           RETURNING *`,
        )
        .get({ now, lease: now + leaseMs }) as CallRow | null;
      return row ? toCall(row) : null;
    },
  };
}
