import { describe, expect, it } from 'vitest';
import { manualClock, tempStore } from '../../test/helpers/memory-store';

// Table groups and transactions through the Store, on both stores (tempStore follows the
// vitest project: SQLite, or PostgreSQL in the project "postgres"). store.test.ts keeps what
// is about the SQLite file itself.

describe('transactions', () => {
  it('rolls back and rejects only the unit of work that threw', async () => {
    const store = await tempStore(Date.now);
    const acc = await store.transaction((tx) => tx.accounts.create({ name: 'a', plan: 'starter' }));
    const results = await Promise.allSettled([
      store.transaction((tx) => tx.usage.charge(acc.id, 'p', 1)),
      store.transaction(async (tx) => {
        await tx.usage.charge(acc.id, 'p', 100);
        throw new Error('boom');
      }),
      store.transaction((tx) => tx.usage.charge(acc.id, 'p', 1)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await store.usage.usedIn(acc.id, 'p')).toBe(2);
    await store.close();
  });

  it('a background write that fails is reported alone; the others commit', async () => {
    const store = await tempStore(Date.now);
    const acc = await store.transaction((tx) => tx.accounts.create({ name: 'a', plan: 'starter' }));
    const errors: unknown[] = [];
    store.background((tx) => tx.usage.charge(acc.id, 'p', 1), (e) => errors.push(e));
    store.background((tx) => tx.usage.charge('acc_nobody', 'p', 1), (e) => errors.push(e)); // no such account
    await store.transaction((tx) => tx.usage.charge(acc.id, 'p', 1));
    await store.flush();
    expect(await store.usage.usedIn(acc.id, 'p')).toBe(2);
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toMatch(/foreign key/i);
    await store.close();
  });
});

describe('call queue', () => {
  it('claims each due call once, with a lease; an expired lease is claimed again as a new attempt', async () => {
    const clock = manualClock();
    const store = await tempStore(clock);
    const acc = await store.transaction((tx) => tx.accounts.create({ name: 'a', plan: 'starter' }));
    const [id] = await store.transaction((tx) =>
      tx.calls.enqueue([{ accountId: acc.id, credentialId: null, source: 'api', phoneNumber: '5321234567', message: 'm' }], clock()),
    );
    // The lease runs by the lease clock: this appliance's on SQLite (the manual clock), the
    // database's on PostgreSQL (real time: a short lease, then a real wait).
    const onPostgres = store.dialect === 'postgres';
    const leaseMs = onPostgres ? 300 : 30_000;
    const claim = () => store.transaction((tx) => tx.calls.claim(clock(), leaseMs));
    const before = Date.now();
    const first = (await claim())!;
    expect(first).toMatchObject({ id, state: 'dialing', attempts: 1, from: 'queued' });
    if (onPostgres) expect(first.leaseUntil! - before).toBeGreaterThanOrEqual(leaseMs - 50);
    else expect(first.leaseUntil).toBe(clock() + leaseMs);
    expect(await claim()).toBeNull(); // held: nobody else gets it
    // The worker died; its lease runs out.
    if (onPostgres) await new Promise((r) => setTimeout(r, leaseMs + 100));
    else clock.advance(leaseMs + 1);
    expect(await claim()).toMatchObject({ id, attempts: 2, from: 'dialing' });
    expect((await store.calls.events(id!)).map((e) => [e.from, e.to, e.attempt])).toEqual([
      ['queued', 'dialing', 1],
      ['dialing', 'dialing', 2],
    ]);
    await store.close();
  });
});

describe('a call and its bundle move together', () => {
  it('the claim bundles the number\'s other due calls; moveAll moves each listed call still in `from` on its own attempt, with one event each', async () => {
    const clock = manualClock();
    const store = await tempStore(clock);
    const acc = await store.transaction((tx) => tx.accounts.create({ name: 'a', plan: 'starter' }));
    const ids = await store.transaction((tx) =>
      tx.calls.enqueue(
        Array.from({ length: 5 }, (_, i) => ({ accountId: acc.id, credentialId: null, source: 'api' as const, phoneNumber: '5321234567', message: `m${i}` })),
        clock(),
      ),
    );
    const carrier = (await store.transaction((tx) => tx.calls.claim(clock(), 30_000)))!;
    expect(carrier.id).toBe(ids[0]);
    expect(carrier.bundled.map((b) => b.id)).toEqual(ids.slice(1));
    for (const id of ids.slice(1)) {
      expect((await store.calls.events(id!)).map((e) => [e.from, e.to, e.attempt, e.reason])).toEqual([['queued', 'dialing', 1, `bundled into ${carrier.id}`]]);
    }
    clock.advance(1000);
    // One bundled call was taken out from under us (another worker moved it); one is listed
    // on an attempt it is no longer on. Neither moves; the others do, in the order given.
    await store.transaction((tx) => tx.calls.move(ids[2]!, { from: 'dialing', to: 'failed', at: clock(), attempt: 1, finished: true }));
    const held = ids.map((id) => ({ id: id!, attempt: 1 }));
    held[3] = { id: ids[3]!, attempt: 7 };
    const moved = await store.transaction((tx) =>
      tx.calls.moveAll([...held].reverse(), { from: 'dialing', to: 'answered', at: clock(), sipCode: 200, trunk: 'main', answered: true }),
    );
    expect(moved).toEqual([ids[4], ids[1], ids[0]]);
    const after = await store.calls.getMany(ids as string[]);
    expect(new Map(after.map((c) => [c.id, c.state]))).toEqual(
      new Map([
        [ids[0], 'answered'],
        [ids[1], 'answered'],
        [ids[2], 'failed'],
        [ids[3], 'dialing'],
        [ids[4], 'answered'],
      ]),
    );
    expect(after.find((c) => c.id === ids[1])).toMatchObject({ answeredAt: clock(), lastSipCode: 200 });
    expect((await store.calls.events(ids[1]!)).at(-1)).toEqual({ at: clock(), attempt: 1, from: 'dialing', to: 'answered', sipCode: 200, reason: null, trunk: 'main', answeredBy: null, amdReason: null });
    expect(await store.calls.events(ids[3]!)).toHaveLength(1);
    // Nothing listed, nothing to do.
    expect(await store.transaction((tx) => tx.calls.moveAll([], { from: 'dialing', to: 'failed', at: clock() }))).toEqual([]);
    await store.close();
  });

  it('alerts: moveAll moves those still in `from`; allCallsEnded names the open ones whose calls all ended, not one under a running escalation or without calls', async () => {
    const clock = manualClock();
    const store = await tempStore(clock);
    const acc = await store.transaction((tx) => tx.accounts.create({ name: 'a', plan: 'starter' }));
    const made = await store.transaction(async (tx) => {
      const alert = async (calls: number) => {
        const id = await tx.alerts.create({ accountId: acc.id, credentialId: null, key: null, source: 'api', message: 'm' }, clock());
        const callIds = await tx.calls.enqueue(
          Array.from({ length: calls }, () => ({ accountId: acc.id, credentialId: null, source: 'api' as const, phoneNumber: '5321234567', message: 'm', alertId: id })),
          clock(),
        );
        return { id, callIds };
      };
      return { ended: await alert(2), waiting: await alert(2), escalating: await alert(1), none: await alert(0), closed: await alert(1) };
    });
    const end = (callId: string) => store.transaction((tx) => tx.calls.move(callId, { from: 'queued', to: 'cancelled', at: clock(), attempt: 0, finished: true }));
    for (const c of [...made.ended.callIds, made.waiting.callIds[0]!, ...made.escalating.callIds, ...made.closed.callIds]) await end(c);
    await store.transaction(async (tx) => {
      const plan = { steps: [{ numbers: ['5321234567'], wait_s: 60 }], rounds: 1 };
      const policy = await tx.policies.create({ accountId: acc.id, name: 'p', ...plan }, clock());
      await tx.escalations.start({ alertId: made.escalating.id, accountId: acc.id, credentialId: null, policyId: policy.id, plan, message: 'm', round: 1, step: 0, stepStartedAt: clock(), nextAt: clock() + 60_000 });
      await tx.alerts.move(made.closed.id, { from: 'open', to: 'resolved', at: clock() });
    });
    const all = Object.values(made).map((a) => a.id);
    expect((await store.alerts.allCallsEnded(all)).map((a) => a.id)).toEqual([made.ended.id]);
    expect(await store.transaction((tx) => tx.alerts.moveAll(all, { from: 'open', to: 'unacknowledged', at: clock(), reason: 'r' }))).toEqual(
      [made.ended.id, made.waiting.id, made.escalating.id, made.none.id],
    );
    expect((await store.alerts.get(made.closed.id))!.state).toBe('resolved');
    expect((await store.alerts.getMany([made.ended.id, 'alt_nope'])).map((a) => [a.id, a.state, a.stateReason])).toEqual([[made.ended.id, 'unacknowledged', 'r']]);
    await store.close();
  });
});

describe('voicemail (docs/telephony.md "Voicemail detection")', () => {
  it('stepAllOnVoicemail: true only once every call of that escalation step ended on a voicemail', async () => {
    const clock = manualClock();
    const store = await tempStore(clock);
    const acc = await store.transaction((tx) => tx.accounts.create({ name: 'a', plan: 'starter' }));
    const { alertId, step1, step2 } = await store.transaction(async (tx) => {
      const alertId = await tx.alerts.create({ accountId: acc.id, credentialId: null, key: null, source: 'api', message: 'm' }, clock());
      const call = (phoneNumber: string, escalationOrdinal: number) => ({ accountId: acc.id, credentialId: null, source: 'api' as const, phoneNumber, message: 'm', alertId, escalationOrdinal });
      const step1 = await tx.calls.enqueue([call('5321234567', 1), call('5321234568', 1)], clock());
      const step2 = await tx.calls.enqueue([call('5321234569', 2)], clock());
      return { alertId, step1, step2 };
    });
    const toVoicemail = (id: string) =>
      store.transaction(async (tx) => {
        await tx.calls.moveAll([{ id, attempt: 0 }], { from: 'queued', to: 'answered', at: clock(), answered: true, answeredBy: 'machine', amdReason: 'beep' });
        await tx.calls.moveAll([{ id, attempt: 0 }], { from: 'answered', to: 'voicemail', at: clock(), finished: true });
      });
    await toVoicemail(step1[0]!);
    expect(await store.calls.stepAllOnVoicemail(alertId, 1)).toBe(false); // the other phone may still answer
    await toVoicemail(step1[1]!);
    expect(await store.calls.stepAllOnVoicemail(alertId, 1)).toBe(true);
    expect(await store.calls.stepAllOnVoicemail(alertId, 2)).toBe(false);
    expect(await store.calls.stepAllOnVoicemail(alertId, 3)).toBe(false); // no calls: not "all on voicemail"
    expect(step2).toHaveLength(1);
    await store.close();
  });
});

describe('alerts', () => {
  it('moves only from the state it was read in; finds the open alert of a key', async () => {
    const clock = manualClock();
    const store = await tempStore(clock);
    const acc = await store.transaction((tx) => tx.accounts.create({ name: 'a', plan: 'starter' }));
    const id = await store.transaction((tx) =>
      tx.alerts.create({ accountId: acc.id, credentialId: null, key: 'disk/db1', source: 'api', message: 'disk full' }, clock()),
    );
    expect((await store.alerts.findOpen(acc.id, 'disk/db1'))?.id).toBe(id);
    expect(await store.transaction((tx) => tx.alerts.move(id, { from: 'open', to: 'acknowledged', at: clock(), acknowledgedBy: '5321234567' }))).toBe(true);
    expect(await store.transaction((tx) => tx.alerts.move(id, { from: 'open', to: 'resolved', at: clock() }))).toBe(false);
    expect(await store.alerts.get(id)).toMatchObject({ state: 'acknowledged', acknowledgedBy: '5321234567' });
    expect(await store.alerts.findOpen(acc.id, 'disk/db1')).toBeNull();
    await store.close();
  });
});

describe('account scope: a lookup within an account never returns another account\'s row', () => {
  it('calls, alerts, key sets, panel owners, maintenance windows and the ops counts; null scope (the administrator) finds every one', async () => {
    const clock = manualClock();
    const store = await tempStore(clock);
    const [mine, theirs] = await store.transaction(async (tx) => [
      await tx.accounts.create({ name: 'mine', plan: 'starter' }),
      await tx.accounts.create({ name: 'theirs', plan: 'starter' }),
    ]);
    const made = await store.transaction(async (tx) => {
      const cred = await tx.credentials.create(theirs.id);
      const alertId = await tx.alerts.create({ accountId: theirs.id, credentialId: cred.id, key: 'k', source: 'api', message: 'm' }, clock());
      const [callId] = await tx.calls.enqueue(
        [{ accountId: theirs.id, credentialId: cred.id, source: 'api', phoneNumber: '5321234567', message: 'm', alertId, escalationOrdinal: 0 }],
        clock(),
      );
      const owner = await tx.panelUsers.create({ login: 'o@theirs.example', role: 'owner', accountId: theirs.id, passwordHash: 'x' });
      const window = await tx.maintenance.create({ accountId: theirs.id, startsAt: clock(), endsAt: clock() + 3600_000, reason: 'planned', matches: ['source=api'] }, clock());
      return { apiKey: cred.apiKey, alertId, callId: callId!, ownerId: owner.id, windowId: window.id };
    });
    for (const [scope, found] of [[theirs.id, true], [null, true], [mine.id, false]] as const) {
      expect((await store.calls.getInAccount(scope, made.callId))?.id ?? null).toBe(found ? made.callId : null);
      expect((await store.alerts.getInAccount(scope, made.alertId))?.id ?? null).toBe(found ? made.alertId : null);
      expect((await store.credentials.findByApiKeyInAccount(scope, made.apiKey))?.apiKey ?? null).toBe(found ? made.apiKey : null);
      expect((await store.panelUsers.getInAccount(scope, made.ownerId))?.id ?? null).toBe(found ? made.ownerId : null);
      expect((await store.maintenance.getInAccount(scope, made.windowId))?.id ?? null).toBe(found ? made.windowId : null);
      // The panel's counts (ops-counts.ts) by the same rule: their call and alert, or nothing.
      expect(await store.opsCounts.callsByState(scope)).toEqual(found ? { queued: 1 } : {});
      expect(await store.opsCounts.alertsByState(scope)).toEqual(found ? { open: 1 } : {});
    }
    // A missing id is null in every scope, exactly like another account's.
    expect(await store.calls.getInAccount(theirs.id, 'call_nope')).toBeNull();
    await store.close();
  });
});
