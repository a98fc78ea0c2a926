import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../test/helpers/memory-store';
import { counted, expectSameRows, plainRequester } from '../../test/helpers/plain-requests';
import { createStore, type Store } from '.';
import { enqueueCalls, type EnqueueRequest } from '../intake/enqueue';

// A plain request on SQLite: its charge, alert and calls in a unit of the group commit
// without a savepoint of its own (queue-at-once.ts), with the rows the full unit makes.
// On SQLite whatever the project's store (this file runs in main only): intake/queue-at-once.pg.test.ts holds PostgreSQL's one statement.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const clock = manualClock('2026-11-27T09:00:00Z');
const options = { timeZone: 'Europe/Istanbul', dedupeWindowMs: 0, waitReason: 'No SIP trunk is configured' };

async function opened() {
  const store = await createStore({ path: join(mkdtempSync(join(tmpdir(), 'va-at-once-')), 'voice-alert.db'), busyTimeoutMs: 1000, clock });
  cleanups.push(() => store.close());
  return { store, ...(await plainRequester(store)) };
}

/** What `work` resolved with, and how many units it committed without and with a savepoint of their own. */
const units = <T>(store: Store, work: () => Promise<T>) =>
  counted(() => {
    const s = store.stats();
    return { unguarded: s.unguarded ?? 0, guarded: s.writes - (s.unguarded ?? 0) };
  }, work);

describe('a plain request on SQLite', () => {
  it('is one unit without a savepoint, from the period\'s first charge on, and makes the rows the full unit makes', async () => {
    const { store, account, request } = await opened();
    const fullUnitOnly = { transaction: store.transaction };

    const atOnce = await units(store, () => enqueueCalls(store, clock, options, request(['5321234567', '5327654321'])));
    expect(atOnce.ran).toEqual({ unguarded: 1, guarded: 0 });
    const full = await units(store, () => enqueueCalls(fullUnitOnly, clock, options, request(['5321234567', '5327654321'])));
    expect(full.ran).toEqual({ unguarded: 0, guarded: 1 });
    await expectSameRows(store, atOnce.outcome, full.outcome, ['5321234567', '5327654321']);
    if (atOnce.outcome.code !== 'QUEUED') throw new Error('not queued');
    expect(await store.calls.get(atOnce.outcome.callIds[0]!)).toMatchObject({ state: 'queued', lastReason: 'No SIP trunk is configured' });
    expect(await store.usage.usedIn(account.id, '2026-11')).toBe(4);
  });

  it('not plain (a key, an Idempotency-Key, a matching window): the full unit, under its savepoint', async () => {
    const { store, account, request } = await opened();
    for (const extra of [{ alertKey: 'k' }, { idempotencyKey: 'delivery-1' }]) {
      expect((await units(store, () => enqueueCalls(store, clock, options, request(['5321111111'], extra)))).ran).toEqual({ unguarded: 0, guarded: 1 });
    }
    const window = { id: 'mw_1', accountId: account.id, startsAt: clock() - 1000, endsAt: clock() + 60_000, reason: 'r', matches: ['source=alertmanager'], createdAt: clock(), startedAt: null };
    const suppressed = await units(store, () => enqueueCalls(store, clock, options, request(['5321111111'], { windows: [window] })));
    expect(suppressed.outcome).toMatchObject({ code: 'QUEUED', callIds: [], suppressed: 'mw_1' });
    expect(suppressed.ran).toEqual({ unguarded: 0, guarded: 1 });
  });

  it('too little credit: nothing is written at once, and the full unit answers insufficient_credit', async () => {
    const { store, request } = await opened();
    // A credit of 3 gives each of the 32 shards a share of 0: every charge checks the total.
    const small = await store.transaction((tx) => tx.accounts.create({ name: 'small', plan: 'enterprise', monthlyCredit: 3 }));
    const smallRequest = (): EnqueueRequest => ({ ...request(['5321234567', '5327654321']), accountId: small.id, monthlyCredit: 3, credentialId: null });
    const charged = await units(store, () => enqueueCalls(store, clock, options, smallRequest()));
    expect(charged.outcome.code).toBe('QUEUED');
    expect(charged.ran).toEqual({ unguarded: 1, guarded: 0 });
    const refused = await units(store, () => enqueueCalls(store, clock, options, smallRequest()));
    expect(refused.outcome).toEqual({ code: 'insufficient_credit' });
    expect(refused.ran).toEqual({ unguarded: 1, guarded: 1 });
    expect(await store.usage.usedIn(small.id, '2026-11')).toBe(2);
    expect(await store.alerts.list({ accountId: small.id })).toHaveLength(1);
  });
});
