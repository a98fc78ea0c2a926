import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { callbackCallJson, callStatusJson } from '../outward';
import type { Store } from '../store';
import { leftUnreached, queueNextPhones } from './next-phone';

// docs/on-call.md "People", phones in order: the store side of queueNextPhones on both stores
// (the postgres project runs this file too); the calls through the binary are in
// test/integration/people-phones.test.ts.
let clock: ReturnType<typeof manualClock>;
let store: Store;

beforeEach(async () => {
  clock = manualClock('2026-11-15T12:00:00Z');
  store = await tempStore(clock);
});
afterEach(() => store.close());

async function setup(phones: string[]) {
  const acc = await store.transaction((tx) => tx.accounts.create({ name: 't', plan: 'starter' }));
  const person = await store.transaction((tx) =>
    tx.people.create(acc.id, { name: 'Ayşe', phones: phones.map((number) => ({ number, verifiedAt: null })), sms: [], emails: [], language: 'en', timeZone: null }, clock()),
  );
  const alertId = await store.transaction((tx) => tx.alerts.create({ accountId: acc.id, credentialId: null, key: null, source: 'api', message: 'disk', labels: null }, clock()));
  const [first] = await store.transaction((tx) =>
    tx.calls.enqueue([{ accountId: acc.id, credentialId: null, source: 'api', phoneNumber: phones[0]!, message: 'disk', alertId, escalationOrdinal: 1, person: { personId: person.id, phone: 0 } }], clock()),
  );
  return { acc, person, alertId, first: first! };
}

const next = (ids: string[]) => store.transaction(async (tx) => queueNextPhones(tx, await tx.calls.getMany(ids), { now: clock(), timeZone: 'Europe/Istanbul' }));

describe("a person's next phone", () => {
  it('is queued once, in the same step and alert, naming the person and the phone; the call JSON and callbacks name them', async () => {
    const { person, alertId, first } = await setup(['5321111111', '5322222222', '5323333333']);
    const queued = await next([first]);
    expect(queued).toHaveLength(1);
    const second = (await store.calls.get(queued[0]!))!;
    expect(second).toMatchObject({ phoneNumber: '5322222222', alertId, escalationOrdinal: 1, personId: person.id, personPhone: 1, state: 'queued' });
    expect(callStatusJson(second, []).person).toEqual({ id: person.id, phone: 1 });
    expect(callbackCallJson(second).person).toEqual({ id: person.id, phone: 1 });
    expect(callbackCallJson((await store.calls.get(first))!).person).toEqual({ id: person.id, phone: 0 });
    // The first phone failing again (its retry) queues nothing new; the second failing queues the third.
    expect(await next([first])).toEqual([]);
    const third = await next([second.id]);
    expect((await store.calls.get(third[0]!))).toMatchObject({ phoneNumber: '5323333333', personPhone: 2 });
    // The last phone: nothing after it.
    expect(await next(third)).toEqual([]);
  });

  it("the first phone's own retry comes after the person's last phone: not while that one waits or rings, at once after it ended", async () => {
    const { first } = await setup(['5321111111', '5322222222']);
    const claim = () => store.transaction((tx) => tx.calls.claim(clock(), 60_000));
    const a1 = await claim();
    expect(a1).toMatchObject({ id: first, attempts: 1 });
    // Busy: its retry is due at once, and the second phone is queued beside it (the mover's transaction).
    expect(await store.transaction((tx) => tx.calls.move(first, { from: 'dialing', to: 'queued', at: clock(), attempt: 1, runAfter: clock() }))).toBe(true);
    const [second] = await next([first]);
    clock.advance(1000);
    // The retry was queued first and is as due, yet the second phone goes first…
    const b1 = await claim();
    expect(b1).toMatchObject({ id: second, phoneNumber: '5322222222', attempts: 1 });
    // …and while it rings, the first phone is not rung again.
    expect(await claim()).toBeNull();
    // The second phone's attempt ended (busy, its own retry later): now the first phone's retry.
    expect(await store.transaction((tx) => tx.calls.move(second!, { from: 'dialing', to: 'queued', at: clock(), attempt: 1, runAfter: clock() + 60_000 }))).toBe(true);
    expect(await claim()).toMatchObject({ id: first, attempts: 2 });
  });

  it('nothing once the alert closed, for a bare number, or with no credit left', async () => {
    const { acc, alertId, first } = await setup(['5321111111', '5322222222']);
    const [bare] = await store.transaction((tx) => tx.calls.enqueue([{ accountId: acc.id, credentialId: null, source: 'api', phoneNumber: '5329999999', message: 'disk', alertId, escalationOrdinal: 1 }], clock()));
    expect(await next([bare!])).toEqual([]);
    expect((await store.calls.get(bare!))!.personId).toBeNull();
    await store.transaction((tx) => tx.accounts.setPlan(acc.id, 'starter', 0));
    expect(await next([first])).toEqual([]);
  });

  it('leftUnreached: busy, no answer, rejected, failed and a retry; never an answer or our own hand-back', () => {
    expect((['busy', 'no_answer', 'rejected', 'failed'] as const).map((s) => leftUnreached(s, { retried: false }))).toEqual([true, true, true, true]);
    expect(leftUnreached('queued', { retried: true })).toBe(true);
    expect(leftUnreached('queued', { retried: false })).toBe(false);
    expect((['acknowledged', 'completed', 'answered', 'cancelled'] as const).map((s) => leftUnreached(s, { retried: true }))).toEqual([false, false, false, false]);
  });
});
