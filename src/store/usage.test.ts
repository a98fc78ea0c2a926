import { afterEach, describe, expect, it } from 'vitest';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import type { Store } from '.';

let stores: Store[] = [];
afterEach(async () => {
  for (const s of stores) await s.close();
  stores = [];
});

async function rig(credit: number, timeoutMs?: number) {
  const store = await tempStore(manualClock(), { timeoutMs });
  stores.push(store);
  const account = await store.transaction((tx) => tx.accounts.create({ name: 'a', plan: 'enterprise', monthlyCredit: credit }));
  const charge = (n = 1, c = credit) => store.transaction((tx) => tx.usage.tryCharge(account.id, '2026-11', n, c));
  return { store, account, charge };
}

describe('usage in shards (usage.ts)', () => {
  it('far from the limit, many charges at once all pass and add up', async () => {
    const { store, account, charge } = await rig(16_000);
    const results = await Promise.all(Array.from({ length: 200 }, () => charge()));
    expect(results.every(Boolean)).toBe(true);
    expect(await store.usage.usedIn(account.id, '2026-11')).toBe(200);
  });

  it('near the limit, of many charges at once exactly as many pass as the credit covers', async () => {
    // 64 credits: 4 per shard; the shards fill unevenly, then every charge checks the total.
    // Near the limit each charge locks every shard, so the 150 take turns on PostgreSQL's pool
    // of 10: 0.7 s alone, 1–3.4 s with the cores busy (and once past store.timeout_ms's 5 s
    // default in the full suite). What is asserted is exactness, so the store may wait longer.
    const { store, account, charge } = await rig(64, 20_000);
    const results = await Promise.all(Array.from({ length: 150 }, (_, i) => charge(1 + (i % 2))));
    const charged = results.map((ok, i) => (ok ? 1 + (i % 2) : 0)).reduce((a, b) => a + b, 0);
    expect(await store.usage.usedIn(account.id, '2026-11')).toBe(charged);
    expect(charged).toBeLessThanOrEqual(64);
    expect(charged).toBeGreaterThanOrEqual(63); // a 2 may not fit the last 1
    expect(await charge(1)).toBe(charged === 63);
  });

  it('a credit lowered in the middle of a period is never exceeded: the period checks the total from then on', async () => {
    const { store, account, charge } = await rig(1_600);
    for (let i = 0; i < 40; i++) expect(await charge(1)).toBe(true);
    await store.transaction((tx) => tx.accounts.setPlan(account.id, 'enterprise', 48));
    const results = await Promise.all(Array.from({ length: 30 }, () => charge(1, 48)));
    expect(results.filter(Boolean)).toHaveLength(8);
    expect(await store.usage.usedIn(account.id, '2026-11')).toBe(48);
  });

  it('a refund gives back what was charged, from any shard, never below 0', async () => {
    const { store, account, charge } = await rig(16_000);
    for (let i = 0; i < 10; i++) await charge(1);
    await store.transaction((tx) => tx.usage.refund(account.id, '2026-11', 7));
    expect(await store.usage.usedIn(account.id, '2026-11')).toBe(3);
    await store.transaction((tx) => tx.usage.refund(account.id, '2026-11', 7));
    expect(await store.usage.usedIn(account.id, '2026-11')).toBe(0);
  });
});
