import type { Clock } from '../clock';
import type { PanelSession, PanelUser, Store } from '../store';
import { randomToken } from '../ids';

export interface SessionOptions {
  idleMs: number;
  maxMs: number;
}

export interface ActiveSession {
  user: PanelUser;
  session: PanelSession;
}

/**
 * Panel sessions. The cookie carries a 43-character random token; the database keeps its
 * SHA-256. Each session has its own CSRF token, which every state-changing request MUST
 * echo. A session ends at logout, after `idleMs` without a request, or `maxMs` after login.
 */
export interface SessionService {
  start(userId: string): Promise<{ token: string; session: PanelSession }>;
  /** The live session for a cookie token, or null (unknown, expired: then it is deleted). */
  resolve(token: string | undefined): Promise<ActiveSession | null>;
  end(token: string): Promise<void>;
  prune(): Promise<number>;
}

// last_seen_at is written at most this often: one write per page view is not worth it.
const TOUCH_EVERY_MS = 60_000;

export function createSessionService(store: Store, clock: Clock, options: SessionOptions): SessionService {
  return {
    async start(userId) {
      const token = randomToken(43);
      const now = clock();
      const session: PanelSession = {
        userId,
        csrfToken: randomToken(32),
        createdAt: now,
        lastSeenAt: now,
        expiresAt: now + options.maxMs,
      };
      await store.transaction((tx) => tx.panelSessions.create(token, session));
      return { token, session };
    },
    async resolve(token) {
      if (!token || token.length > 128) return null;
      const session = await store.panelSessions.find(token);
      if (!session) return null;
      const now = clock();
      const user = await store.panelUsers.get(session.userId);
      if (!user || now >= session.expiresAt || now - session.lastSeenAt >= options.idleMs) {
        void store.transaction((tx) => tx.panelSessions.delete(token)).catch(() => undefined);
        return null;
      }
      if (now - session.lastSeenAt >= TOUCH_EVERY_MS) {
        void store.transaction((tx) => tx.panelSessions.touch(token, now)).catch(() => undefined);
      }
      return { user, session };
    },
    async end(token) {
      await store.transaction((tx) => tx.panelSessions.delete(token));
    },
    prune() {
      return store.transaction((tx) => tx.panelSessions.prune(clock(), options.idleMs));
    },
  };
}
