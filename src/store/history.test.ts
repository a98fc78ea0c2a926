import { afterEach, describe, expect, it } from 'vitest';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import type { HistoryEntry, Store } from '.';
import { pruneHistory } from '.';

let store: Store;
afterEach(() => store?.close());

const DAY_MS = 86_400_000;

function entry(at: number, over: Partial<HistoryEntry> = {}): HistoryEntry {
  return {
    at,
    requestId: `r-${at}-${Math.random()}`,
    endpoint: '/webhook/receive',
    sourceIp: '203.0.113.9',
    status: 403,
    message: 'Invalid webhook key',
    accountId: null,
    credentialId: null,
    ...over,
  };
}

async function record(entries: HistoryEntry[]) {
  await store.transaction(async (tx) => {
    for (const e of entries) await tx.history.record(e);
  });
}

describe('api history', () => {
  it('refused requests with no account from one address are one row per endpoint, status and minute', async () => {
    const clock = manualClock('2026-11-15T12:00:00Z');
    store = await tempStore(clock);
    const t0 = clock();
    // 3 minutes of 403s and 429s, 500 a minute each: 6 rows, not 3,000.
    const flood: HistoryEntry[] = [];
    for (let i = 0; i < 1500; i++) {
      const at = t0 + i * 120; // 0 … 180 s
      flood.push(entry(at), entry(at, { status: 429, message: 'Rate limit exceeded' }));
    }
    await record(flood);
    const rows = await store.history.list({ limit: 100 });
    expect(rows).toHaveLength(6);
    expect(rows.reduce((n, r) => n + r.count, 0)).toBe(3000);
    const first = rows.find((r) => r.status === 403 && r.firstAt === t0)!;
    expect(first.count).toBe(500);
    expect(first.at).toBe(t0 + 499 * 120); // the last of that minute
  });

  it('another address, or a request whose account is known, keeps its own row', async () => {
    const clock = manualClock();
    store = await tempStore(clock);
    const t = clock();
    await record([
      entry(t),
      entry(t, { sourceIp: '198.51.100.1' }),
      entry(t, { accountId: 'acc_1', status: 402, message: 'Insufficient call credit' }),
      entry(t, { accountId: 'acc_1', status: 402, message: 'Insufficient call credit' }),
      entry(t, { status: 200, message: 'Call queued', accountId: 'acc_1' }),
    ]);
    expect(await store.history.list()).toHaveLength(5);
  });

  it('recordHistory: the entries of a batch land in one insert, the aggregated ones still aggregate, each field kept', async () => {
    const clock = manualClock();
    store = await tempStore(clock);
    const t = clock();
    const own = Array.from({ length: 30 }, (_, i) =>
      entry(t + i, { accountId: 'acc_1', credentialId: 'cred_1', status: 200, message: 'Call queued', requestId: `own-${i}`, sourceIp: i % 2 ? '::1' : '203.0.113.9' }),
    );
    const refused = Array.from({ length: 20 }, (_, i) => entry(t + i));
    const errors: unknown[] = [];
    // Interleaved as requests come; some turns pass between them (a batch may be under way).
    for (let i = 0; i < 50; i++) {
      store.recordHistory(i % 5 === 4 ? refused.pop()! : own.shift() ?? refused.pop()!, (e) => errors.push(e));
      if (i % 7 === 0) await new Promise((r) => setImmediate(r));
    }
    await store.flush();
    expect(errors).toEqual([]);
    const rows = await store.history.list({ limit: 100 });
    expect(rows.filter((r) => r.status === 403)).toEqual([expect.objectContaining({ count: 20, sourceIp: '203.0.113.9', accountId: null })]);
    const kept = rows.filter((r) => r.status === 200).sort((a, b) => a.at - b.at);
    expect(kept).toHaveLength(30);
    expect(kept[1]).toMatchObject({ at: t + 1, firstAt: t + 1, requestId: 'own-1', endpoint: '/webhook/receive', sourceIp: '::1', message: 'Call queued', accountId: 'acc_1', credentialId: 'cred_1', count: 1 });
  });

  it('pruning deletes rows older than history_days, in batches', async () => {
    const clock = manualClock('2026-11-15T12:00:00Z');
    store = await tempStore(clock);
    const now = clock();
    const old = Array.from({ length: 250 }, (_, i) => entry(now - 91 * DAY_MS + i, { accountId: 'acc_1', status: 200 }));
    const recent = Array.from({ length: 10 }, (_, i) => entry(now - 89 * DAY_MS + i, { accountId: 'acc_1', status: 200 }));
    await record([...old, ...recent]);
    const before = store.stats().batches;
    expect(await pruneHistory(store, { nowMs: now, days: 90, maxRows: 1_000_000, batchRows: 100 })).toBe(250);
    expect(store.stats().batches - before).toBe(3); // 100 + 100 + 50: one transaction each
    expect(await store.history.count()).toBe(10);
    expect(await pruneHistory(store, { nowMs: now + 2 * DAY_MS, days: 90, maxRows: 1_000_000 })).toBe(10);
  });

  it('pruning keeps at most history_max_rows rows, the newest', async () => {
    const clock = manualClock();
    store = await tempStore(clock);
    const now = clock();
    await record(Array.from({ length: 1200 }, (_, i) => entry(now + i, { accountId: 'acc_1', status: 200, requestId: `r${i}` })));
    expect(await pruneHistory(store, { nowMs: now, days: 90, maxRows: 1000, batchRows: 64 })).toBe(200);
    const rows = await store.history.list({ limit: 2000 });
    expect(rows).toHaveLength(1000);
    expect(rows.at(-1)!.requestId).toBe('r200');
  });
});
