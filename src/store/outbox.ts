import type { SqlConnection } from './sql/connection';
import { claimParams, leasedRows, type Lease } from './lease';
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
 * Outcome callbacks (docs/on-call.md "Callbacks"): each account's target and the
 * outbox of events to deliver. `add` and the target writes run inside the caller's
 * transaction (`store.transaction`); `due` is a plain read the sender makes outside any transaction.
 */
export interface OutboxStore {
  /** Sets the URL and its signing secret (sealed at rest). False when there is no such account. */
  setTarget(accountId: string, target: CallbackTarget): Promise<boolean>;
  clearTarget(accountId: string): Promise<boolean>;
  /** The account's URL and the opened secret, or null when none is set. */
  target(accountId: string): Promise<CallbackTarget | null>;
  /** The URL only (no decryption): checked on every emission. */
  urlOf(accountId: string): Promise<string | null>;
  add(event: NewOutboxEvent): Promise<void>;
  /**
   * Pending events whose time has come, oldest first, and only the FIRST pending event of
   * each order key: the next event of an alert is never handed out while an earlier one is
   * still pending (in order per alert). Events leased to a sender (in flight) are left out
   * until the lease runs out; they still hold back their order key's later events. `skipAccounts`: accounts whose slots are all taken,
   * left out here so that one account's backlog cannot fill `limit` and starve the others.
   */
  due(now: number, limit: number, skipAccounts?: readonly string[]): Promise<OutboxEvent[]>;
  /**
   * Leases what `due` would give (leaving out events leased to anyone, not yet run out) to
   * `lease.owner` for `lease.ms`, measured by the lease clock (dialect.ts `leaseClock`): no
   * other appliance's sender takes them until it runs out (the owner hung or died). Inside a
   * transaction. In no particular order; the sender sends them all at once anyway.
   */
  claim(now: number, limit: number, skipAccounts: readonly string[], lease: Lease): Promise<OutboxEvent[]>;
  /** True while the event is pending and leased to `owner`, the lease not run out: checked just before sending. */
  leasedTo(eventId: string, owner: string, now: number): Promise<boolean>;
  /** Gives up `owner`'s leases of events still pending (all, or those named): they may be sent at once by anyone. */
  releaseLeases(owner: string, eventIds?: readonly string[]): Promise<number>;
  /**
   * Applies one attempt's result to a pending event and ends its lease; false when it was
   * no longer pending, or (with `owner`) no longer leased to that owner: another appliance
   * took it over and its own result stands.
   */
  recordAttempt(eventId: string, attempt: AttemptRecord, owner?: string): Promise<boolean>;
  get(eventId: string): Promise<OutboxEvent | null>;
  /** The account's newest events, newest first (the panel's "recent deliveries"). */
  recent(accountId: string, limit: number): Promise<OutboxEvent[]>;
  /** Deletes delivered and given-up events finished before `before`; returns how many. */
  prune(before: number): Promise<number>;
}

export function createOutboxStore(db: SqlConnection, box: SecretBox): OutboxStore {
  const sql = dialectOf(db.dialect);
  // Keyed by event_id (unique): the sender names events by it.
  const leases = leasedRows(db, { table: 'callback_outbox', key: 'event_id' });
  const insert = db.query(
    `INSERT INTO callback_outbox (event_id, account_id, order_key, type, body, state, created_at, next_attempt_at)
     VALUES ($eventId, $accountId, $orderKey, $type, $body, 'pending', $at, $at)`,
  );
  const urlQuery = db.query('SELECT callback_url AS url FROM accounts WHERE id = $id');
  // The retry schedule (next_attempt_at) is written on the appliance's clock (sender.ts,
  // schedule.ts), so it is compared with the caller's `$now`; the leases with the database's.
  const dueWhere = `o.state = 'pending' AND o.next_attempt_at <= $now
       AND o.account_id NOT IN (SELECT value FROM ${sql.jsonTexts('$skip')})
       AND NOT EXISTS (SELECT 1 FROM callback_outbox p
                       WHERE p.order_key = o.order_key AND p.state = 'pending' AND p.id < o.id)`;
  const dueQuery = db.query(`SELECT * FROM callback_outbox o WHERE ${dueWhere} AND ${leases.sql.free('o')} ORDER BY o.next_attempt_at, o.id LIMIT $limit`);
  // The first pending event of its order key, as `due`; one leased to someone else is
  // passed over but still holds back the events after it (in order per alert).
  const claimQuery = db.query(leases.sql.claim({ due: dueWhere, alias: 'o', order: 'o.next_attempt_at, o.id' }));
  const leasedQuery = db.query(`SELECT 1 AS leased FROM callback_outbox WHERE event_id = $eventId AND state = 'pending' AND ${leases.sql.running()}`);
  const attemptSet = `attempts = attempts + 1, last_attempt_at = $at, last_status = $status,
       last_error = $error, state = $state, next_attempt_at = $next,
       finished_at = CASE WHEN $state = 'pending' THEN NULL ELSE $at END`;
  const attempt = db.query(`UPDATE callback_outbox SET ${attemptSet}, ${leases.sql.clear} WHERE event_id = $eventId AND state = 'pending'`);
  const attemptLeased = db.query(leases.sql.finish({ set: attemptSet, where: `state = 'pending'` }));
  const byEventId = db.query('SELECT * FROM callback_outbox WHERE event_id = $eventId');
  const recentQuery = db.query('SELECT * FROM callback_outbox WHERE account_id = $accountId ORDER BY id DESC LIMIT $limit');
  return {
    async setTarget(accountId, { url, secret }) {
      const { changes } = await db
        .query('UPDATE accounts SET callback_url = $url, callback_secret_enc = $enc WHERE id = $id')
        .run({ id: accountId, url, enc: box.seal(secret) });
      return changes === 1;
    },
    async clearTarget(accountId) {
      return (await db.query('UPDATE accounts SET callback_url = NULL, callback_secret_enc = NULL WHERE id = $id').run({ id: accountId })).changes === 1;
    },
    async target(accountId) {
      const row = (await db.query('SELECT callback_url AS url, callback_secret_enc AS enc FROM accounts WHERE id = $id').get({ id: accountId })) as {
        url: string | null;
        enc: Uint8Array | null;
      } | null;
      if (!row?.url || !row.enc) return null;
      return { url: row.url, secret: box.open(row.enc) };
    },
    async urlOf(accountId) {
      return ((await urlQuery.get({ id: accountId })) as { url: string | null } | null)?.url ?? null;
    },
    async add(e) {
      insert.send({ eventId: e.eventId, accountId: e.accountId, orderKey: e.orderKey, type: e.type, body: e.body, at: e.at });
    },
    async due(now, limit, skipAccounts = []) {
      return ((await dueQuery.all({ now, limit, skip: JSON.stringify(skipAccounts) })) as OutboxRow[]).map(toEvent);
    },
    async claim(now, limit, skipAccounts, lease) {
      const rows = (await claimQuery.all({ ...claimParams(now, limit, lease), skip: JSON.stringify(skipAccounts) })) as OutboxRow[];
      return rows.map(toEvent);
    },
    async leasedTo(eventId, owner, now) {
      return (await leasedQuery.get({ eventId, owner, now })) !== null;
    },
    async releaseLeases(owner, eventIds) {
      return eventIds
        ? leases.release(owner, `state = 'pending' AND event_id IN (SELECT value FROM ${sql.jsonTexts('$ids')})`, { ids: JSON.stringify(eventIds) })
        : leases.release(owner, `state = 'pending'`);
    },
    async recordAttempt(eventId, a, owner) {
      const state: OutboxState = a.outcome === 'retry' ? 'pending' : a.outcome;
      const next = a.outcome === 'retry' ? a.nextAttemptAt : a.at;
      const params = { eventId, at: a.at, status: a.status, error: a.error, state, next };
      const r = owner === undefined ? await attempt.run(params) : await attemptLeased.run({ ...params, key: eventId, owner });
      return r.changes === 1;
    },
    async get(eventId) {
      const row = (await byEventId.get({ eventId })) as OutboxRow | null;
      return row ? toEvent(row) : null;
    },
    async recent(accountId, limit) {
      return ((await recentQuery.all({ accountId, limit })) as OutboxRow[]).map(toEvent);
    },
    async prune(before) {
      return (await db.query(`DELETE FROM callback_outbox WHERE state != 'pending' AND finished_at < $before`).run({ before })).changes;
    },
  };
}
