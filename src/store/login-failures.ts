import type { Database } from 'bun:sqlite';

export interface LoginFailures {
  failures: number;
  firstAt: number;
  lastAt: number;
}

/** Failed panel logins per key (`ip:…`, `login:…`), counted within a window. */
export interface LoginFailuresStore {
  /** Failures of `key` since `since` (an older window counts as none). */
  get(key: string, since: number): LoginFailures | null;
  /** Counts one more failure; a window older than `since` starts again at 1. */
  add(key: string, now: number, since: number): number;
  clear(key: string): void;
  prune(since: number): number;
}

export function createLoginFailuresStore(db: Database): LoginFailuresStore {
  return {
    get(key, since) {
      const r = db
        .query('SELECT failures, first_at, last_at FROM panel_login_failures WHERE key = $key AND first_at > $since')
        .get({ key, since }) as { failures: number; first_at: number; last_at: number } | null;
      return r ? { failures: r.failures, firstAt: r.first_at, lastAt: r.last_at } : null;
    },
    add(key, now, since) {
      const r = db
        .query(
          `INSERT INTO panel_login_failures (key, failures, first_at, last_at) VALUES ($key, 1, $now, $now)
           ON CONFLICT (key) DO UPDATE SET
             failures = CASE WHEN first_at > $since THEN failures + 1 ELSE 1 END,
             first_at = CASE WHEN first_at > $since THEN first_at ELSE $now END,
             last_at = $now
           RETURNING failures`,
        )
        .get({ key, now, since }) as { failures: number };
      return r.failures;
    },
    clear(key) {
      db.query('DELETE FROM panel_login_failures WHERE key = $key').run({ key });
    },
    prune(since) {
      return db.query('DELETE FROM panel_login_failures WHERE first_at <= $since').run({ since }).changes;
    },
  };
}
