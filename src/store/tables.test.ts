import { describe, expect, it } from 'vitest';
import { manualClock, tempStore } from '../../test/helpers/memory-store';

// Table groups and the group commit through the Store, on both stores (tempStore follows the
// vitest project: SQLite, or PostgreSQL in the project "postgres"). store.test.ts keeps what
// is about the SQLite file itself.

describe('group commit', () => {
  it('rolls back and rejects only the write that threw', async () => {
    const store = tempStore(Date.now);
    const acc = store.accounts.create({ name: 'a', plan: 'starter' });
    const results = await Promise.allSettled([
      store.writes.run(() => store.usage.charge(acc.id, 'p', 1)),
      store.writes.run(() => {
        store.usage.charge(acc.id, 'p', 100);
        throw new Error('boom');
      }),
      store.writes.run(() => store.usage.charge(acc.id, 'p', 1)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(store.usage.usedIn(acc.id, 'p')).toBe(2);
    await store.close();
  });

  it('a detached write that fails is reported alone; the batch it rode in commits', async () => {
    const store = tempStore(Date.now);
    const acc = store.accounts.create({ name: 'a', plan: 'starter' });
    const errors: unknown[] = [];
    store.writes.runDetached(() => store.usage.charge(acc.id, 'p', 1), (e) => errors.push(e));
    store.writes.runDetached(() => store.usage.charge('acc_nobody', 'p', 1), (e) => errors.push(e)); // no such account
    await store.writes.run(() => store.usage.charge(acc.id, 'p', 1));
    expect(store.usage.usedIn(acc.id, 'p')).toBe(2);
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toMatch(/foreign key/i);
    await store.close();
  });
});

describe('call queue', () => {
  it('claims each due call once, with a lease; an expired lease is claimed again as a new attempt', async () => {
    const clock = manualClock();
    const store = tempStore(clock);
    const acc = store.accounts.create({ name: 'a', plan: 'starter' });
    const [id] = store.calls.enqueue(
      [{ accountId: acc.id, credentialId: null, source: 'api', phoneNumber: '5321234567', message: 'm' }],
      clock(),
    );
    const first = store.calls.claim(clock(), 30_000)!;
    expect(first).toMatchObject({ id, state: 'dialing', attempts: 1, leaseUntil: clock() + 30_000, from: 'queued' });
    expect(store.calls.claim(clock(), 30_000)).toBeNull(); // held: nobody else gets it
    clock.advance(30_001); // the worker died; its lease ran out
    expect(store.calls.claim(clock(), 30_000)).toMatchObject({ id, attempts: 2, from: 'dialing' });
    expect(store.calls.events(id!).map((e) => [e.from, e.to, e.attempt])).toEqual([
      ['queued', 'dialing', 1],
      ['dialing', 'dialing', 2],
    ]);
    await store.close();
  });
});

describe('alerts', () => {
  it('moves only from the state it was read in; finds the open alert of a key', async () => {
    const clock = manualClock();
    const store = tempStore(clock);
    const acc = store.accounts.create({ name: 'a', plan: 'starter' });
    const id = store.alerts.create({ accountId: acc.id, credentialId: null, key: 'disk/db1', source: 'api', message: 'disk full' }, clock());
    expect(store.alerts.findOpen(acc.id, 'disk/db1')?.id).toBe(id);
    expect(store.alerts.move(id, { from: 'open', to: 'acknowledged', at: clock(), acknowledgedBy: '5321234567' })).toBe(true);
    expect(store.alerts.move(id, { from: 'open', to: 'resolved', at: clock() })).toBe(false);
    expect(store.alerts.get(id)).toMatchObject({ state: 'acknowledged', acknowledgedBy: '5321234567' });
    expect(store.alerts.findOpen(acc.id, 'disk/db1')).toBeNull();
    await store.close();
  });
});
