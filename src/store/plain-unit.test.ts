import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../test/helpers/memory-store';
import { counted, plainRequester } from '../../test/helpers/plain-requests';
import { createStore, type Store } from '.';
import { enqueueCalls, type EnqueueRequest } from '../intake/enqueue';

// On SQLite an accepted request is one unit of the group commit, enqueueCalls' own; a plain
// one (intake/enqueue.ts isPlain) runs without a savepoint of its own (UnitOptions.savepoint).
// On SQLite whatever the project's store (this file runs in main only);
// intake/queue-at-once.pg.test.ts holds PostgreSQL's one statement.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const clock = manualClock('2026-11-27T09:00:00Z');
const options = { timeZone: 'Europe/Istanbul', dedupeWindowMs: 0, waitReason: 'No SIP trunk is configured' };

async function opened() {
  const store = await createStore({ path: join(mkdtempSync(join(tmpdir(), 'va-plain-unit-')), 'voice-alert.db'), busyTimeoutMs: 1000, clock });
  cleanups.push(() => store.close());
  return { store, ...(await plainRequester(store)) };
}

/** What `work` resolved with, and the units it committed: in all, and (SQLite) without a savepoint. */
const units = <T>(store: Store, work: () => Promise<T>) =>
  counted(() => {
    const s = store.stats();
    return { units: s.writes, unguarded: s.unguarded ?? 0 };
  }, work);

describe('an accepted request on SQLite is one unit of work', () => {
  it('plain: one unit without a savepoint, from the period\'s first charge on, writing the alert, its calls in order and the charge', async () => {
    const { store, account, request } = await opened();
    const queued = await units(store, () => enqueueCalls(store, clock, options, request(['5321234567', '5327654321'])));
    expect(queued.ran).toEqual({ units: 1, unguarded: 1 });
    const outcome = queued.outcome;
    if (outcome.code !== 'QUEUED') throw new Error(`not queued: ${outcome.code}`);
    expect(outcome).toEqual({ code: 'QUEUED', endpoint: 'webhook', alertId: expect.stringMatching(/^alt_/), callIds: [expect.stringMatching(/^call_/), expect.stringMatching(/^call_/)] });
    expect(await store.alerts.get(outcome.alertId!)).toMatchObject({ source: 'alertmanager', labels: { severity: 'critical' }, state: 'open', key: null, message: 'core switch down' });
    const calls = await store.calls.getMany(outcome.callIds);
    expect(outcome.callIds.map((id) => calls.find((c) => c.id === id)?.phoneNumber)).toEqual(['5321234567', '5327654321']);
    expect(calls.every((c) => c.state === 'queued' && c.alertId === outcome.alertId && c.lastReason === 'No SIP trunk is configured' && c.source === 'webhook')).toBe(true);
    expect(await store.usage.usedIn(account.id, '2026-11')).toBe(2);
  });

  it('not plain (a key, an Idempotency-Key): the same one unit, under its savepoint', async () => {
    const { store, request } = await opened();
    for (const extra of [{ alertKey: 'k' }, { idempotencyKey: 'delivery-1' }]) {
      const r = await units(store, () => enqueueCalls(store, clock, options, request(['5321111111'], extra)));
      expect(r.outcome.code).toBe('QUEUED');
      expect(r.ran).toEqual({ units: 1, unguarded: 0 });
    }
  });

  it('a plain request under a matching window: one unit, the alert stored and suppressed, nobody called or charged', async () => {
    const { store, account, request } = await opened();
    const window = { id: 'mw_1', accountId: account.id, startsAt: clock() - 1000, endsAt: clock() + 60_000, reason: 'r', matches: ['source=alertmanager'], createdAt: clock(), startedAt: null };
    const suppressed = await units(store, () => enqueueCalls(store, clock, options, request(['5321111111'], { windows: [window] })));
    expect(suppressed.outcome).toMatchObject({ code: 'QUEUED', callIds: [], suppressed: 'mw_1' });
    expect(suppressed.ran).toEqual({ units: 1, unguarded: 1 });
    expect(await store.usage.usedIn(account.id, '2026-11')).toBe(0);
  });

  it('too little credit: the same unit answers insufficient_credit and writes no alert or call', async () => {
    const { store, request } = await opened();
    // A credit of 3 gives each of the 32 shards a share of 0: every charge checks the total.
    const small = await store.transaction((tx) => tx.accounts.create({ name: 'small', plan: 'enterprise', monthlyCredit: 3 }));
    const smallRequest = (): EnqueueRequest => ({ ...request(['5321234567', '5327654321']), accountId: small.id, monthlyCredit: 3, credentialId: null });
    expect((await enqueueCalls(store, clock, options, smallRequest())).outcome.code).toBe('QUEUED');
    const refused = await units(store, () => enqueueCalls(store, clock, options, smallRequest()));
    expect(refused.outcome).toEqual({ code: 'insufficient_credit' });
    expect(refused.ran).toEqual({ units: 1, unguarded: 1 });
    expect(await store.usage.usedIn(small.id, '2026-11')).toBe(2);
    expect(await store.alerts.list({ accountId: small.id })).toHaveLength(1);
  });
});
