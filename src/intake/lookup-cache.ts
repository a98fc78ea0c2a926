import type { Account, Credential, Store } from '../store';

/**
 * Credentials and accounts as the intake reads them, remembered between requests.
 *
 * Under load every request asked SQLite for the same credential (after a SHA-256 of the
 * key) and the same account: ~7% of the intake's time in a profile. What is remembered
 * MUST never outlive a change, or a revoked key or disabled account would still queue
 * calls. So at the start of each request the store's change marker is read (two cheap
 * statements over SQLite's own counters: a commit by another connection such as the CLI,
 * or any row changed through this one such as the panel), and any move forgets everything.
 * Our own group commits move it too, so under load the cache lives for one batch at a
 * time: one refetch per batch instead of two queries per request. A request checks the
 * marker at its own start (`fresh()`), so it never sees anything older than the
 * database did then; its lookups follow synchronously, with no write in between.
 */
export interface LookupCache {
  /** Checks the counters; the lookups of the view returned MUST be made in the same tick. */
  fresh(): Lookups;
}

export interface Lookups {
  credentialByWebhookKey(key: string): Credential | null;
  credentialByApiKey(apiKey: string): Credential | null;
  account(id: string): Account | null;
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
  const byWebhookKey = new Map<string, Credential | null>();
  const byApiKey = new Map<string, Credential | null>();
  const accounts = new Map<string, Account | null>();

  /** Forgets everything when the database may have changed since the last look. */
  const validate = () => {
    const marker = store.changeMarker();
    if (marker !== seen) {
      seen = marker;
      byWebhookKey.clear();
      byApiKey.clear();
      accounts.clear();
    }
  };

  const cached = <T>(map: Map<string, T>, key: string, load: () => T): T => {
    if (map.has(key)) return map.get(key)!;
    const value = load();
    if (map.size >= MAX_ENTRIES) map.clear();
    map.set(key, value);
    return value;
  };

  const lookups: Lookups = {
    credentialByWebhookKey: (key) => cached(byWebhookKey, key, () => store.credentials.findByWebhookKey(key)),
    credentialByApiKey: (apiKey) => cached(byApiKey, apiKey, () => store.credentials.findByApiKey(apiKey)),
    account: (id) => cached(accounts, id, () => store.accounts.get(id)),
  };
  return {
    fresh() {
      validate();
      return lookups;
    },
  };
}
