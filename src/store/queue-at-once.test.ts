import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../test/helpers/memory-store';
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
  return { store, account, request };
}

/** What `work` resolved with, and how many units it committed without and with a savepoint of their own. */
async function units<T>(store: Store, work: () => Promise<T>): Promise<T & { ran: { unguarded: number; guarded: number } }> {
  const count = () => {
    const s = store.stats();
    return { unguarded: s.unguarded ?? 0, guarded: s.writes - (s.unguarded ?? 0) };
  };
  const before = count();
  const value = await work();
  const after = count();
  return { ...value, ran: { unguarded: after.unguarded - before.unguarded, guarded: after.guarded - before.guarded } };
}

/** A row as both units must make it: ids and links left out. */
const comparable = <T extends object>(row: T | null, ...omit: (keyof T)[]) => {
  const copy = { ...row } as Record<string, unknown>;
  for (const k of omit) delete copy[k as string];
  return copy;
};

describe('a plain request on SQLite', () => {
  it('is one unit without a savepoint, from the period\'s first charge on, and makes the rows the full unit makes', async () => {
    const { store, account, request } = await opened();
    await store.flush();
    const fullUnitOnly = { transaction: store.transaction };

    const atOnce = await units(store, () => enqueueCalls(store, clock, options, request(['5321234567', '5327654321'])));
    expect(atOnce.ran).toEqual({ unguarded: 1, guarded: 0 });
    const full = await units(store, () => enqueueCalls(fullUnitOnly, clock, options, request(['5321234567', '5327654321'])));
    expect(full.ran).toEqual({ unguarded: 0, guarded: 1 });
    if (atOnce.outcome.code !== 'QUEUED' || full.outcome.code !== 'QUEUED') throw new Error('not queued');
    expect(atOnce.outcome).toEqual({ code: 'QUEUED', endpoint: 'webhook', alertId: expect.stringMatching(/^alt_/), callIds: [expect.stringMatching(/^call_/), expect.stringMatching(/^call_/)] });
    expect(Object.keys(atOnce.outcome).sort()).toEqual(Object.keys(full.outcome).sort());

    const alertA = await store.alerts.get(atOnce.outcome.alertId!);
    const alertB = await store.alerts.get(full.outcome.alertId!);
    expect(alertA).toMatchObject({ source: 'alertmanager', labels: { severity: 'critical' }, state: 'open', key: null });
    expect(comparable(alertA, 'id')).toEqual(comparable(alertB, 'id'));
    const inOrder = async (ids: string[]) => (await store.calls.getMany(ids)).sort((x, y) => ids.indexOf(x.id) - ids.indexOf(y.id));
    const callsA = await inOrder(atOnce.outcome.callIds);
    const callsB = await inOrder(full.outcome.callIds);
    expect((await store.calls.ofAlert(atOnce.outcome.alertId!)).map((c) => c.id).sort()).toEqual([...atOnce.outcome.callIds].sort());
    expect(callsA.map((c) => c.phoneNumber)).toEqual(['5321234567', '5327654321']);
    expect(callsA[0]).toMatchObject({ state: 'queued', lastReason: 'No SIP trunk is configured' });
    expect(callsA.map((c) => comparable(c, 'id', 'alertId'))).toEqual(callsB.map((c) => comparable(c, 'id', 'alertId')));
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
