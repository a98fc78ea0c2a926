import type { OutboxEvent, Store } from '../store';
import { randomToken } from '../ids';

export type SetCallbackResult = { ok: true; url: string; secret: string } | { ok: false; code: 'NO_ACCOUNT' | 'INVALID_CALLBACK_URL' };
export type ClearCallbackResult = { ok: true } | { ok: false; code: 'NO_ACCOUNT' };

/** Long enough for any real endpoint with a token in it, short enough to show in a table. */
export const CALLBACK_URL_MAX = 2048;

/** The account's callback secret: `vcs_` + 40 base62 characters (≈ 238 bits). */
export const newCallbackSecret = () => `vcs_${randomToken(40)}`;

/** An absolute http(s) URL without credentials in it; null when it is not one. */
export function parseCallbackUrl(raw: string): string | null {
  const text = raw.trim();
  if (!text || text.length > CALLBACK_URL_MAX) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  // user:password@ would be sent on every request and shown in the panel: a token belongs
  // in the path or query, and the signature is what proves the sender anyway.
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || !url.hostname) return null;
  return url.toString();
}

/**
 * An account's outcome callbacks (docs/on-call.md "Callbacks"), for the panel and the
 * CLI alike. Setting a URL always issues a new signing secret, returned once and never
 * again (it is kept sealed); setting or clearing takes effect for events written after it.
 */
export interface CallbacksService {
  set(accountId: string, url: string): Promise<SetCallbackResult>;
  clear(accountId: string): Promise<ClearCallbackResult>;
  /** The URL set (never the secret) and the newest deliveries, newest first. */
  show(accountId: string, limit?: number): Promise<{ url: string | null; recent: OutboxEvent[] } | null>;
}

export function createCallbacksService(store: Store): CallbacksService {
  return {
    set(accountId, raw) {
      const url = parseCallbackUrl(raw);
      return store.transaction(async (tx): Promise<SetCallbackResult> => {
        if (!(await tx.accounts.get(accountId))) return { ok: false, code: 'NO_ACCOUNT' };
        if (!url) return { ok: false, code: 'INVALID_CALLBACK_URL' };
        const secret = newCallbackSecret();
        await tx.outbox.setTarget(accountId, { url, secret });
        return { ok: true, url, secret };
      });
    },
    clear(accountId) {
      return store.transaction(async (tx): Promise<ClearCallbackResult> => ((await tx.outbox.clearTarget(accountId)) ? { ok: true } : { ok: false, code: 'NO_ACCOUNT' }));
    },
    async show(accountId, limit = 50) {
      if (!(await store.accounts.get(accountId))) return null;
      const [url, recent] = await Promise.all([store.outbox.urlOf(accountId), store.outbox.recent(accountId, limit)]);
      return { url, recent };
    },
  };
}
