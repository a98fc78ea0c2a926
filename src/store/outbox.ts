import type { SqlConnection } from './sql/connection';
import { dialectOf } from './sql/dialect';
import type { SecretBox } from './secret-box';

/** Where an account's outcome events go, with the key that signs them. */
export interface CallbackTarget {
  url: string;
  secret: string;
}

export type OutboxState = 'pending' | 'delivered' | 'given_up';

export interface OutboxEvent {
  /** Row id: the delivery order. */
  seq: number;
  eventId: string;
  accountId: string;
  orderKey: string;
  type: string;
  /** The JSON body, sent byte for byte on every attempt. */
  body: string;
  state: OutboxState;
  createdAt: number;
  nextAttemptAt: number;
  attempts: number;
  lastAttemptAt: number | null;
  lastStatus: number | null;
  lastError: string | null;
  finishedAt: number | null;
}

export interface NewOutboxEvent {
  eventId: string;
  accountId: string;
  orderKey: string;
  type: string;
  body: string;
  at: number;
}

/** One attempt's result: delivered, try again at `nextAttemptAt`, or given up. */
export type AttemptRecord = {
  at: number;
  status: number | null;
  error: string | null;
} & ({ outcome: 'delivered' } | { outcome: 'retry'; nextAttemptAt: number } | { outcome: 'given_up' });

interface OutboxRow {
  id: number;
  event_id: string;
  account_id: string;
  order_key: string;
  type: string;
  body: string;
  state: OutboxState;
  created_at: number;
  next_attempt_at: number;
  attempts: number;
  last_attempt_at: number | null;
  last_status: number | null;
  last_error: string | null;
  finished_at: number | null;
}

const toEvent = (r: OutboxRow): OutboxEvent => ({
  seq: r.id,
  eventId: r.event_id,
  accountId: r.account_id,
  orderKey: r.order_key,
  type: r.type,
  body: r.body,
  state: r.state,
  createdAt: r.created_at,
  nextAttemptAt: r.next_attempt_at,
  attempts: r.attempts,
  lastAttemptAt: r.last_attempt_at,
  lastStatus: r.last_status,
  lastError: r.last_error,
  finishedAt: r.finished_at,
});

/**
 * Outcome callbacks (contract.md "Outcome callbacks"): each account's target and the
 * outbox of events to deliver. `add` and the target writes run inside the caller's
 * group-commit transaction; `due` is a plain read the sender makes outside any transaction.
 */
export interface OutboxStore {
  /** Sets the URL and its signing secret (sealed at rest). False when there is no such account. */
  setTarget(accountId: string, target: CallbackTarget): boolean;
  clearTarget(accountId: string): boolean;
  /** The account's URL and the opened secret, or null when none is set. */
  target(accountId: string): CallbackTarget | null;
  /** The URL only (no decryption): checked on every emission. */
  urlOf(accountId: string): string | null;
  add(event: NewOutboxEvent): void;
  /**
   * Pending events whose time has come, oldest first, and only the FIRST pending event of
   * each order key: the next event of an alert is never handed out while an earlier one is
   * still pending (in order per alert). Events in flight are still pending: the caller
   * leaves out the ones it is sending. `skipAccounts`: accounts whose slots are all taken,
   * left out here so that one account's backlog cannot fill `limit` and starve the others.
   */
  due(now: number, limit: number, skipAccounts?: readonly string[]): OutboxEvent[];
  /** Applies one attempt's result to a pending event; false when it was no longer pending. */
  recordAttempt(eventId: string, attempt: AttemptRecord): boolean;
  get(eventId: string): OutboxEvent | null;
  /** The account's newest events, newest first (the panel's "recent deliveries"). */
  recent(accountId: string, limit: number): OutboxEvent[];
  /** Deletes delivered and given-up events finished before `before`; returns how many. */
  prune(before: number): number;
}

export function createOutboxStore(db: SqlConnection, box: SecretBox): OutboxStore {
  const insert = db.query(
    `INSERT INTO callback_outbox (event_id, account_id, order_key, type, body, state, created_at, next_attempt_at)
     VALUES ($eventId, $accountId, $orderKey, $type, $body, 'pending', $at, $at)`,
  );
  const urlQuery = db.query('SELECT callback_url AS url FROM accounts WHERE id = $id');
  const dueQuery = db.query(
    `SELECT * FROM callback_outbox o
     WHERE o.state = 'pending' AND o.next_attempt_at <= $now
       AND o.account_id NOT IN (SELECT value FROM ${dialectOf(db.dialect).jsonTexts('$skip')})
       AND NOT EXISTS (SELECT 1 FROM callback_outbox p
                       WHERE p.order_key = o.order_key AND p.state = 'pending' AND p.id < o.id)
     ORDER BY o.next_attempt_at, o.id LIMIT $limit`,
  );
  const attempt = db.query(
    `UPDATE callback_outbox SET attempts = attempts + 1, last_attempt_at = $at, last_status = $status,
       last_error = $error, state = $state, next_attempt_at = $next,
       finished_at = CASE WHEN $state = 'pending' THEN NULL ELSE $at END
     WHERE event_id = $eventId AND state = 'pending'`,
  );
  const byEventId = db.query('SELECT * FROM callback_outbox WHERE event_id = $eventId');
  const recentQuery = db.query('SELECT * FROM callback_outbox WHERE account_id = $accountId ORDER BY id DESC LIMIT $limit');
  return {
    setTarget(accountId, { url, secret }) {
      return (
        db
          .query('UPDATE accounts SET callback_url = $url, callback_secret_enc = $enc WHERE id = $id')
          .run({ id: accountId, url, enc: box.seal(secret) }).changes === 1
      );
    },
    clearTarget(accountId) {
      return db.query('UPDATE accounts SET callback_url = NULL, callback_secret_enc = NULL WHERE id = $id').run({ id: accountId }).changes === 1;
    },
    target(accountId) {
      const row = db.query('SELECT callback_url AS url, callback_secret_enc AS enc FROM accounts WHERE id = $id').get({ id: accountId }) as {
        url: string | null;
        enc: Uint8Array | null;
      } | null;
      if (!row?.url || !row.enc) return null;
      return { url: row.url, secret: box.open(row.enc) };
    },
    urlOf(accountId) {
      return (urlQuery.get({ id: accountId }) as { url: string | null } | null)?.url ?? null;
    },
    add(e) {
      insert.run({ eventId: e.eventId, accountId: e.accountId, orderKey: e.orderKey, type: e.type, body: e.body, at: e.at });
    },
    due(now, limit, skipAccounts = []) {
      return (dueQuery.all({ now, limit, skip: JSON.stringify(skipAccounts) }) as OutboxRow[]).map(toEvent);
    },
    recordAttempt(eventId, a) {
      const state: OutboxState = a.outcome === 'retry' ? 'pending' : a.outcome;
      const next = a.outcome === 'retry' ? a.nextAttemptAt : a.at;
      return attempt.run({ eventId, at: a.at, status: a.status, error: a.error, state, next }).changes === 1;
    },
    get(eventId) {
      const row = byEventId.get({ eventId }) as OutboxRow | null;
      return row ? toEvent(row) : null;
    },
    recent(accountId, limit) {
      return (recentQuery.all({ accountId, limit }) as OutboxRow[]).map(toEvent);
    },
    prune(before) {
      return db.query(`DELETE FROM callback_outbox WHERE state != 'pending' AND finished_at < $before`).run({ before }).changes;
    },
  };
}
