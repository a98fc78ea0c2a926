import type { SqlConnection } from './sql/connection';
import { digest } from '../digest';

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
  create(token: string, session: PanelSession): Promise<void>;
  find(token: string): Promise<PanelSession | null>;
  touch(token: string, now: number): Promise<void>;
  delete(token: string): Promise<void>;
  /** Ends every session of a user but the one with `keepToken` (a password changed or reset). */
  deleteForUser(userId: string, keepToken?: string): Promise<number>;
  /** Removes sessions past their absolute end or idle for longer than `idleMs`. */
  prune(now: number, idleMs: number): Promise<number>;
}

export function createPanelSessionsStore(db: SqlConnection): PanelSessionsStore {
  return {
    async create(token, s) {
      await db.query(
        `INSERT INTO panel_sessions (token_hash, user_id, csrf_token, created_at, last_seen_at, expires_at)
         VALUES ($h, $user, $csrf, $created, $seen, $expires)`,
      ).run({ h: digest(token), user: s.userId, csrf: s.csrfToken, created: s.createdAt, seen: s.lastSeenAt, expires: s.expiresAt });
    },
    async find(token) {
      const r = (await db.query('SELECT * FROM panel_sessions WHERE token_hash = $h').get({ h: digest(token) })) as Row | null;
      return r
        ? { userId: r.user_id, csrfToken: r.csrf_token, createdAt: r.created_at, lastSeenAt: r.last_seen_at, expiresAt: r.expires_at }
        : null;
    },
    async touch(token, now) {
      await db.query('UPDATE panel_sessions SET last_seen_at = $now WHERE token_hash = $h').run({ h: digest(token), now });
    },
    async delete(token) {
      await db.query('DELETE FROM panel_sessions WHERE token_hash = $h').run({ h: digest(token) });
    },
    async deleteForUser(userId, keepToken) {
      return (
        await db
          .query('DELETE FROM panel_sessions WHERE user_id = $user AND token_hash != $keep')
          .run({ user: userId, keep: keepToken ? digest(keepToken) : '' })
      ).changes;
    },
    async prune(now, idleMs) {
      return (
        await db
          .query('DELETE FROM panel_sessions WHERE expires_at <= $now OR last_seen_at <= $idle')
          .run({ now, idle: now - idleMs })
      ).changes;
    },
  };
}
