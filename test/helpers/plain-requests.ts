import { expect } from 'vitest';
import type { EnqueueRequest } from '../../src/intake/enqueue';
import type { Outcome } from '../../src/intake/outcome';
import type { Store } from '../../src/store';

/**
 * Plain requests (intake/enqueue.ts isPlain) and the units they ran: shared by the PostgreSQL
 * and SQLite suites (src/intake/queue-at-once.pg.test.ts, src/store/plain-unit.test.ts).
 */

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

/** A row as both ways must make it: ids and links left out. */
const comparable = <T extends object>(row: T | null, ...omit: (keyof T)[]) => {
  const copy = { ...row } as Record<string, unknown>;
  for (const k of omit) delete copy[k as string];
  return copy;
};

/**
 * The alert and calls queued at once are the full unit's: the same answer's shape, the same
 * alert, the same calls in the order of `numbers` (ids and links aside).
 */
export async function expectSameRows(store: Store, atOnce: Outcome, full: Outcome, numbers: string[]): Promise<void> {
  if (atOnce.code !== 'QUEUED' || full.code !== 'QUEUED') throw new Error(`not queued: ${atOnce.code}, ${full.code}`);
  const callId = expect.stringMatching(/^call_/);
  expect(atOnce).toEqual({ code: 'QUEUED', endpoint: 'webhook', alertId: expect.stringMatching(/^alt_/), callIds: numbers.map(() => callId) });
  expect(Object.keys(atOnce).sort()).toEqual(Object.keys(full).sort());

  const alertA = await store.alerts.get(atOnce.alertId!);
  const alertB = await store.alerts.get(full.alertId!);
  expect(alertA).toMatchObject({ source: 'alertmanager', labels: { severity: 'critical' }, state: 'open', key: null });
  expect(comparable(alertA, 'id')).toEqual(comparable(alertB, 'id'));
  // Made in the same millisecond, an alert's calls are listed by id: compare them in the order queued.
  const inOrder = async (ids: string[]) => (await store.calls.getMany(ids)).sort((x, y) => ids.indexOf(x.id) - ids.indexOf(y.id));
  const callsA = await inOrder(atOnce.callIds);
  const callsB = await inOrder(full.callIds);
  expect((await store.calls.ofAlert(atOnce.alertId!)).map((c) => c.id).sort()).toEqual([...atOnce.callIds].sort());
  expect(callsA.map((c) => c.phoneNumber)).toEqual(numbers);
  expect(callsA.map((c) => comparable(c, 'id', 'alertId'))).toEqual(callsB.map((c) => comparable(c, 'id', 'alertId')));
}
