import type { Account, Credential, MaintenanceWindow, Store } from '../store';

/**
 * Credentials, accounts and maintenance windows as the intake reads them, remembered
 * between requests.
 *
 * Under load every request asked SQLite for the same credential (after a SHA-256 of the
 * key) and the same account: ~7% of the intake's time in a profile. What is remembered
 * MUST never outlive a change, or a revoked key or disabled account would still queue
 * calls. So at the start of each request the store's change marker is read (`await
 * store.changeMarker()`: on SQLite one cheap statement over its own counter; it moves for a
 * commit by any connection, another process's such as the CLI or our own such as the
 * panel's), and any move forgets everything. Our own commits move it too, so under load the
 * cache lives for one batch at a time: one refetch per batch instead of two queries per
 * request. A request reads the marker at its own start (`await fresh()`), before any of its
 * lookups, so it never sees anything older than the database did then. Requests that miss
 * the same key at once share one read; a read that began before the cache was forgotten
 * is never remembered after it (it may predate the change).
 */
export interface LookupCache {
  /** Reads the change marker (forgetting everything if it moved); make the request's lookups on the view it resolves with. */
  fresh(): Promise<Lookups>;
}

export interface Lookups {
  credentialByWebhookKey(key: string): Promise<Credential | null>;
  credentialByApiKey(apiKey: string): Promise<Credential | null>;
  account(id: string): Promise<Account | null>;
  /**
   * The account's maintenance windows not ended at `now` (docs/on-call.md "Maintenance windows"):
   * read once per change instead of once per request (on PostgreSQL a round trip of each
   * accepted alert's three, BENCHMARKS.md). A list read at a later instant than `now` (a
   * clock set back) is not used: it may lack a window that ended in between.
   */
  windowsOf(accountId: string, now: number): Promise<MaintenanceWindow[]>;
}

/** Unknown keys are remembered too (a client retrying a wrong key); this bounds memory. */
const MAX_ENTRIES = 1024;

const caches = new WeakMap<Store, LookupCache>();

/** One cache per store (so per connection), made on first use. */
export function lookupsFor(store: Store): LookupCache {
  let c = caches.get(store);
  if (!c) {
    c = createLookupCache(store);
    caches.set(store, c);
  }
  return c;
}

export function createLookupCache(store: Store): LookupCache {
  let seen = -1;
  const byWebhookKey = new Map<string, Promise<Credential | null>>();
  const byApiKey = new Map<string, Promise<Credential | null>>();
  const accounts = new Map<string, Promise<Account | null>>();
  const windows = new Map<string, Promise<MaintenanceWindow[]>>();
  /** The instant each account's windows were read at (windowsOf). */
  const windowsReadAt = new Map<string, number>();

  /** Forgets everything when the database may have changed since the last look. */
  const validate = async () => {
    const marker = await store.changeMarker();
    if (marker !== seen) {
      seen = marker;
      byWebhookKey.clear();
      byApiKey.clear();
      accounts.clear();
      windows.clear();
      windowsReadAt.clear();
    }
  };

  // The read's promise is remembered at once, so requests missing the same key together
  // share it; clearing the maps drops it, so a read from before a change is not kept.
  // A read that fails is forgotten (the next request asks again).
  const cached = <T>(map: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> => {
    const hit = map.get(key);
    if (hit) return hit;
    const value = load();
    if (map.size >= MAX_ENTRIES) map.clear();
    map.set(key, value);
    value.catch(() => {
      if (map.get(key) === value) map.delete(key);
    });
    return value;
  };

  const lookups: Lookups = {
    credentialByWebhookKey: (key) => cached(byWebhookKey, key, () => store.credentials.findByWebhookKey(key)),
    credentialByApiKey: (apiKey) => cached(byApiKey, apiKey, () => store.credentials.findByApiKey(apiKey)),
    account: (id) => cached(accounts, id, () => store.accounts.get(id)),
    windowsOf(accountId, now) {
      // A list read at a later instant (a clock set back) may lack a window that ended in between.
      if ((windowsReadAt.get(accountId) ?? now) > now) windows.delete(accountId);
      return cached(windows, accountId, () => {
        if (windowsReadAt.size >= MAX_ENTRIES) windowsReadAt.clear();
        windowsReadAt.set(accountId, now);
        return store.maintenance.notEndedAt(accountId, now);
      });
    },
  };
  return {
    async fresh() {
      await validate();
      return lookups;
    },
  };
}
