import type { Statement } from 'bun:sqlite';
import type { Account, Credential, Store } from '../store';

/**
 * Credentials and accounts as the intake reads them, remembered between requests.
 *
 * Under load every request asked SQLite for the same credential (after a SHA-256 of the
 * key) and the same account: ~7% of the intake's time in a profile. What is remembered
 * MUST never outlive a change, or a revoked key or disabled account would still queue
 * calls. So at the start of each request two cheap statements read two counters, and
 * any change to either forgets everything:
 *   - `PRAGMA data_version` changes when ANOTHER connection commits (the CLI in another
 *     process revoking a key, a writer on a second connection);
 *   - `total_changes()` counts every row this connection ever changed (the panel
 *     revoking a key through the same connection), committed or not.
 * Our own group commits move `total_changes()` too, so under load the cache lives for one
 * batch at a time: one refetch per batch instead of two queries per request. A request checks the
 * counters at its own start (`fresh()`), so it never sees anything older than the
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
  let dataVersion: Statement | null = null;
  let totalChanges: Statement | null = null;
  let seenVersion = -1;
  let seenChanges = -1;
  const byWebhookKey = new Map<string, Credential | null>();
  const byApiKey = new Map<string, Credential | null>();
  const accounts = new Map<string, Account | null>();

  /** Forgets everything when the database may have changed since the last look. */
  const validate = () => {
    // query(), not prepare(): the connection finalizes its cached statements on close, so
    // these never keep the file from closing cleanly. Two plain statements, not one over
    // pragma_data_version: that table-valued form prepares the pragma anew on every call
    // (4.3 µs against 2.6 µs here).
    dataVersion ??= store.db.query('PRAGMA data_version');
    totalChanges ??= store.db.query('SELECT total_changes()');
    const version = dataVersion.values()[0]![0] as number;
    const changes = totalChanges.values()[0]![0] as number;
    if (version !== seenVersion || changes !== seenChanges) {
      seenVersion = version;
      seenChanges = changes;
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
