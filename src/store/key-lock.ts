import type { SqlConnection } from './sql/connection';

/**
 * Makes the rest of the current transaction run alone among transactions that took the
 * same key, on every appliance: two copies of one alert key (one tool posting to both
 * appliances) or of one Idempotency-Key, arriving at two appliances at once, must not both
 * see "nothing yet" and both call. SQLite needs nothing: it has one writer at a time.
 * On PostgreSQL a transaction-scoped advisory lock on a hash of the key, let go at COMMIT.
 * Only on a transaction (`store.transaction`'s `tx`), before the reads it protects: it
 * holds from the transaction's next statement on.
 */
export type KeyLock = (key: string) => Promise<void>;

export function createKeyLock(db: SqlConnection): KeyLock {
  if (db.dialect !== 'postgres') return () => Promise.resolve();
  const lock = db.query('SELECT pg_advisory_xact_lock(hashtextextended($key, 0)) AS locked');
  // Sent, not waited for: the server runs a transaction's statements in order, so the reads
  // behind it wait for the lock there, and a keyed request saves a round trip. A lock that
  // fails (lock_timeout, a deadlock) fails the statement after it and the COMMIT
  // (sql/connection.ts send).
  return async (key) => lock.send({ key });
}
