import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { answerEatingRelay } from '../../test/helpers/answer-eating-relay';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { testStoreUrl } from '../../test/helpers/postgres';
import { counted, expectSameRows, plainRequester } from '../../test/helpers/plain-requests';
import { createStore, type Store } from '../store';
import { enqueueCalls, type EnqueueRequest } from './enqueue';

// A plain request on PostgreSQL: its alert, calls and charge in one statement, its own
// transaction (store/queue-at-once.ts, chained from the table groups' own texts), with the
// same rows as the unit of work makes.

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const clock = manualClock('2026-11-27T09:00:00Z');
const options = { timeZone: 'Europe/Istanbul', dedupeWindowMs: 0, waitReason: null };

async function opened(store: Store) {
  cleanups.push(() => store.close());
  return plainRequester(store);
}

/** What `work` resolved with, and the units it ran: one-statement units and full transactions. */
const units = <T>(store: Store, work: () => Promise<T>) =>
  counted(() => {
    const s = store.stats();
    return { alone: s.alone ?? 0, full: s.batches - (s.alone ?? 0) };
  }, work);

describe('a plain request on PostgreSQL', () => {
  it('is one statement once the period has usage rows, and makes the rows the full unit makes', async () => {
    const store = await tempStore(clock);
    const { account, request } = await opened(store);
    const fullUnitOnly = { transaction: store.transaction };

    // The period's first charge makes its usage rows: the one statement finds none and leaves it to the full unit.
    const first = await units(store, () => enqueueCalls(store, clock, options, request(['5321111111'])));
    expect(first.outcome.code).toBe('QUEUED');
    expect(first.ran).toEqual({ alone: 1, full: 1 });

    const atOnce = await units(store, () => enqueueCalls(store, clock, options, request(['5321234567', '5327654321'])));
    expect(atOnce.ran).toEqual({ alone: 1, full: 0 });
    const full = await units(store, () => enqueueCalls(fullUnitOnly, clock, options, request(['5321234567', '5327654321'])));
    expect(full.ran).toEqual({ alone: 0, full: 1 });
    await expectSameRows(store, atOnce.outcome, full.outcome, ['5321234567', '5327654321']);
    expect(await store.usage.usedIn(account.id, '2026-11')).toBe(5);
  });

  it('not plain (a key, an Idempotency-Key, a matching window) or too little credit for a shard: the full unit decides', async () => {
    const store = await tempStore(clock);
    const { account, request } = await opened(store);
    await enqueueCalls(store, clock, options, request(['5321111111']));
    for (const extra of [{ alertKey: 'k' }, { idempotencyKey: 'delivery-1' }]) {
      expect((await units(store, () => enqueueCalls(store, clock, options, request(['5321111111'], extra)))).ran).toEqual({ alone: 0, full: 1 });
    }
    const window = { id: 'mw_1', accountId: account.id, startsAt: clock() - 1000, endsAt: clock() + 60_000, reason: 'r', matches: ['source=alertmanager'], createdAt: clock(), startedAt: null };
    const suppressed = await units(store, () => enqueueCalls(store, clock, options, request(['5321111111'], { windows: [window] })));
    expect(suppressed.outcome).toMatchObject({ code: 'QUEUED', callIds: [], suppressed: 'mw_1' });
    expect(suppressed.ran).toEqual({ alone: 0, full: 1 });

    // A credit of 3 gives each of the 32 shards a share of 0: every charge checks the total.
    const small = await store.transaction((tx) => tx.accounts.create({ name: 'small', plan: 'enterprise', monthlyCredit: 3 }));
    const smallRequest = (): EnqueueRequest => ({ ...request(['5321234567', '5327654321']), accountId: small.id, monthlyCredit: 3, credentialId: null });
    const charged = await units(store, () => enqueueCalls(store, clock, options, smallRequest()));
    expect(charged.outcome.code).toBe('QUEUED');
    expect(charged.ran).toEqual({ alone: 0, full: 1 });
    expect((await enqueueCalls(store, clock, options, smallRequest())).outcome).toEqual({ code: 'insufficient_credit' });
    expect(await store.usage.usedIn(small.id, '2026-11')).toBe(2);
  });

  it('an answer lost with its connection: run again, the alert id is found taken, and the request is queued and charged once', async () => {
    const url = new URL(testStoreUrl()!);
    const relay = await answerEatingRelay(url.port, 'SELECT 1');
    cleanups.push(() => relay.close());
    url.port = String(relay.port);
    // One connection: the warm-up prepares the statement on the connection the lost one runs on.
    const store = await createStore({ path: join(mkdtempSync(join(tmpdir(), 'va-at-once-')), 'voice-alert.db'), url: url.toString(), busyTimeoutMs: 1000, timeoutMs: 5000, poolSize: 1, clock });
    const { account, request } = await opened(store);
    await enqueueCalls(store, clock, options, request(['5321111111'])); // the period's usage rows
    // The statement, prepared on the one connection.
    expect((await units(store, () => enqueueCalls(store, clock, options, request(['5321111111'])))).ran).toEqual({ alone: 1, full: 0 });
    const runAgain = store.stats().runAgain;

    relay.armed = true;
    const lost = await enqueueCalls(store, clock, options, request(['5321234567', '5327654321']));
    expect(relay.eaten).toBe(1);
    expect(store.stats().runAgain - runAgain).toBe(1);
    if (lost.outcome.code !== 'QUEUED') throw new Error(`not queued: ${lost.outcome.code}`);
    expect((await store.calls.ofAlert(lost.outcome.alertId!)).map((c) => c.id).sort()).toEqual([...lost.outcome.callIds].sort());
    expect((await store.alerts.list({ accountId: account.id })).length).toBe(3);
    expect(await store.usage.usedIn(account.id, '2026-11')).toBe(4);
  });
});
