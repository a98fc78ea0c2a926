import type { SqlConnection } from './sql/connection';

/**
 * Makes the rest of the current transaction run alone among transactions that took the
 * same key, on every appliance: two copies of one alert key (one tool posting to both
 * appliances) or of one Idempotency-Key, arriving at two appliances at once, must not both
 * see "nothing yet" and both call. SQLite needs nothing: it has one writer at a time.
 * On PostgreSQL a transaction-scoped advisory lock on a hash of the key, let go at COMMIT.
 * Only on a transaction (`store.transaction`'s `tx`), before the reads it protects.
 */
export type KeyLock = (key: string) => Promise<void>;

export function createKeyLock(db: SqlConnection): KeyLock {
  if (db.dialect !== 'postgres') return () => Promise.resolve();
  const lock = db.query('SELECT pg_advisory_xact_lock(hashtextextended($key, 0)) AS locked');
  return async (key) => void (await lock.get({ key }));
}
