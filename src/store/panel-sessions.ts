import type { SqlConnection } from './sql/connection';
import { digest } from './secret-box';

export interface PanelSession {
  userId: string;
  csrfToken: string;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
}

interface Row {
  user_id: string;
  csrf_token: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
}

/** Sessions keyed by the SHA-256 of the cookie token; the token itself is never stored. */
export interface PanelSessionsStore {
  create(token: string, session: PanelSession): void;
  find(token: string): PanelSession | null;
  touch(token: string, now: number): void;
  delete(token: string): void;
  /** Ends every session of a user but the one with `keepToken` (a password changed or reset). */
  deleteForUser(userId: string, keepToken?: string): number;
  /** Removes sessions past their absolute end or idle for longer than `idleMs`. */
  prune(now: number, idleMs: number): number;
}

export function createPanelSessionsStore(db: SqlConnection): PanelSessionsStore {
  return {
    create(token, s) {
      db.query(
        `INSERT INTO panel_sessions (token_hash, user_id, csrf_token, created_at, last_seen_at, expires_at)
         VALUES ($h, $user, $csrf, $created, $seen, $expires)`,
      ).run({ h: digest(token), user: s.userId, csrf: s.csrfToken, created: s.createdAt, seen: s.lastSeenAt, expires: s.expiresAt });
    },
    find(token) {
      const r = db.query('SELECT * FROM panel_sessions WHERE token_hash = $h').get({ h: digest(token) }) as Row | null;
      return r
        ? { userId: r.user_id, csrfToken: r.csrf_token, createdAt: r.created_at, lastSeenAt: r.last_seen_at, expiresAt: r.expires_at }
        : null;
    },
    touch(token, now) {
      db.query('UPDATE panel_sessions SET last_seen_at = $now WHERE token_hash = $h').run({ h: digest(token), now });
    },
    delete(token) {
      db.query('DELETE FROM panel_sessions WHERE token_hash = $h').run({ h: digest(token) });
    },
    deleteForUser(userId, keepToken) {
      return db
        .query('DELETE FROM panel_sessions WHERE user_id = $user AND token_hash != $keep')
        .run({ user: userId, keep: keepToken ? digest(keepToken) : '' }).changes;
    },
    prune(now, idleMs) {
      return db
        .query('DELETE FROM panel_sessions WHERE expires_at <= $now OR last_seen_at <= $idle')
        .run({ now, idle: now - idleMs }).changes;
    },
  };
}
