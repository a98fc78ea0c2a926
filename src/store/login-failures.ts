import type { SqlConnection } from './sql/connection';
import { dialectOf } from './sql/dialect';

export interface LoginFailures {
  failures: number;
  firstAt: number;
  lastAt: number;
}

/** One counter an attempt is reserved against; `max` null: counted, never refused (a back-off only). */
export interface LoginCounter {
  key: string;
  max: number | null;
}

/**
 * Panel login attempts per key (`pair:<name> <address>`, `ip:…`, `login:…`), counted within
 * a window. An attempt is counted BEFORE its password is checked (reserve) and given back
 * when it succeeds (settle), so guesses sent at once cannot all pass one read of the count.
 */
export interface LoginFailuresStore {
  /** Failures of `key` since `since` (an older window counts as none). */
  get(key: string, since: number): Promise<LoginFailures | null>;
  /**
   * In ONE statement: when no counter with a `max` has reached it within the window, counts
   * one more attempt on every counter and returns each key's new count; otherwise changes
   * nothing and returns null. A window older than `since` starts again at 1.
   */
  reserve(counters: LoginCounter[], now: number, since: number): Promise<Map<string, number> | null>;
  /** A reserved attempt that succeeded: `clear` keys start again, `refund` keys lose that one attempt. */
  settle(clear: string[], refund: string[]): Promise<void>;
  prune(since: number): Promise<number>;
}

export function createLoginFailuresStore(db: SqlConnection): LoginFailuresStore {
  const sql = dialectOf(db.dialect);
  return {
    async get(key, since) {
      const r = (await db
        .query('SELECT failures, first_at, last_at FROM panel_login_failures WHERE key = $key AND first_at > $since')
        .get({ key, since })) as { failures: number; first_at: number; last_at: number } | null;
      return r ? { failures: r.failures, firstAt: r.first_at, lastAt: r.last_at } : null;
    },
    async reserve(counters, now, since) {
      // The keys and limits travel as one JSON array, so the check (NOT EXISTS) and the
      // increment are a single INSERT … SELECT: nothing can run between them. The WHERE is
      // also what lets SQLite read ON CONFLICT as the upsert's (sqlite.org/lang_upsert.html).
      const rows = (await db
        .query(
          `WITH wanted(key, max) AS (SELECT value ->> 'key', CAST(value ->> 'max' AS INTEGER) FROM ${sql.jsonObjects('$counters')})
           INSERT INTO panel_login_failures AS cur (key, failures, first_at, last_at)
           SELECT key, 1, $now, $now FROM wanted
           WHERE NOT EXISTS (
             SELECT 1 FROM panel_login_failures f JOIN wanted w ON f.key = w.key
             WHERE w.max IS NOT NULL AND f.first_at > $since AND f.failures >= w.max)
           ON CONFLICT (key) DO UPDATE SET
             failures = CASE WHEN cur.first_at > $since THEN cur.failures + 1 ELSE 1 END,
             first_at = CASE WHEN cur.first_at > $since THEN cur.first_at ELSE $now END,
             last_at = $now
           RETURNING key, failures`,
        )
        .all({ counters: JSON.stringify(counters), now, since })) as { key: string; failures: number }[];
      return rows.length === 0 ? null : new Map(rows.map((r) => [r.key, r.failures]));
    },
    async settle(clear, refund) {
      const del = db.query('DELETE FROM panel_login_failures WHERE key = $key');
      for (const key of clear) await del.run({ key });
      const dec = db.query(`UPDATE panel_login_failures SET failures = ${sql.greatest('0', 'failures - 1')} WHERE key = $key`);
      for (const key of refund) await dec.run({ key });
    },
    async prune(since) {
      return (await db.query('DELETE FROM panel_login_failures WHERE first_at <= $since').run({ since })).changes;
    },
  };
}
