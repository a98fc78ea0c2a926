import type { EnqueueRequest } from '../../src/intake/enqueue';
import type { Store } from '../../src/store';

/** Plain requests (intake/enqueue.ts isPlain) and the units they run (src/intake/plain-unit.test.ts). */

/** An account with a credit of 1000 and a key on `store`, and plain requests from it. */
export async function plainRequester(store: Store) {
  const account = await store.transaction((tx) => tx.accounts.create({ name: 'a', plan: 'enterprise', monthlyCredit: 1000 }));
  const cred = await store.transaction((tx) => tx.credentials.create(account.id));
  const request = (phoneNumbers: string[], extra: Partial<EnqueueRequest> = {}): EnqueueRequest => ({
    endpoint: 'webhook',
    accountId: account.id,
    monthlyCredit: account.monthlyCredit,
    credentialId: cred.id,
    phoneNumbers,
    message: 'core switch down',
    alertKey: null,
    idempotencyKey: null,
    origin: { source: 'alertmanager', labels: { severity: 'critical' } },
    windows: [],
    ...extra,
  });
  return { account, request };
}

/** What `work` resolved with, and how much each of `count`'s counters moved while it ran. */
export async function counted<T, K extends string>(count: () => Record<K, number>, work: () => Promise<T>): Promise<T & { ran: Record<K, number> }> {
  const before = count();
  const value = await work();
  const after = count();
  const ran = Object.fromEntries(Object.keys(after).map((k) => [k, after[k as K] - before[k as K]])) as Record<K, number>;
  return { ...value, ran };
}
