import { describe, expect, it } from 'vitest';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { createAlertActions } from '../alerts';
import { createCallMover } from '../calls/call-mover';
import { silentLogger } from '../log';
import { CALL_STATES } from '../call-model';
import { callEventFor, emitAlertEvent, emitTrunkEvent } from '.';

const TZ = 'Europe/Istanbul';

async function rig() {
  const clock = manualClock();
  const store = await tempStore(clock);
  const account = await store.transaction((tx) => tx.accounts.create({ name: 'a', plan: 'starter' }));
  const alert = (key: string | null, numbers: string[] = ['5321111111']) =>
    store.transaction(async (tx) => {
      const alertId = await tx.alerts.create({ accountId: account.id, credentialId: null, key, source: 'api', message: 'disk full' }, clock());
      const callIds = await tx.calls.enqueue(
        numbers.map((phoneNumber) => ({ accountId: account.id, credentialId: null, source: 'api' as const, phoneNumber, message: 'disk full', alertId })),
        clock(),
      );
      return { alertId, callIds };
    });
  const events = async () => (await store.outbox.recent(account.id, 100)).reverse().map((e) => JSON.parse(e.body));
  const mover = async () => {
    const claimed = (await store.transaction((tx) => tx.calls.claim(clock(), 60_000)))!;
    return { claimed, mover: createCallMover({ store, clock, log: silentLogger(), timeZone: TZ }, claimed, 'dialing', claimed.bundled) };
  };
  return { clock, store, account, alert, events, mover, actions: createAlertActions({ store, clock, timeZone: TZ }) };
}

describe('callback events', () => {
  it('which call edges send an event: answered, acknowledged, voicemail, and every final state but completed and cancelled', () => {
    const sent = Object.fromEntries(CALL_STATES.map((s) => [s, callEventFor(s)]).filter(([, e]) => e !== null));
    expect(sent).toEqual({
      answered: 'call.answered',
      acknowledged: 'call.acknowledged',
      busy: 'call.failed',
      no_answer: 'call.failed',
      rejected: 'call.failed',
      failed: 'call.failed',
      expired: 'call.failed',
      voicemail: 'call.voicemail',
    });
  });

  it('an account without a callback_url gets no outbox rows', async () => {
    const { store, account, alert, actions } = await rig();
    const { alertId } = await alert('k');
    await actions.acknowledge(account.id, alertId, 'api');
    expect(await store.outbox.recent(account.id, 10)).toEqual([]);
    await store.close();
  });

  it('keypad 1: call.answered, call.acknowledged, alert.acknowledged, in that order, with the alert and call fields', async () => {
    const { clock, store, account, alert, events, mover } = await rig();
    await store.transaction((tx) => tx.outbox.setTarget(account.id, { url: 'http://127.0.0.1:1/cb', secret: 's' }));
    const { alertId, callIds } = await alert('db-down');
    const { mover: m } = await mover();
    await m.move('ringing', { sipCode: 180 });
    await m.move('answered', { sipCode: 200 });
    clock.advance(5_000);
    await m.move('acknowledged');
    const got = await events();
    expect(got.map((e) => e.type)).toEqual(['call.answered', 'call.acknowledged', 'alert.acknowledged']);
    expect(got[1]).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      at: new Date(clock()).toISOString(),
      account_id: account.id,
      // The alert as it was when the call's edge was written: its own event follows.
      alert: { id: alertId, key: 'db-down', state: 'open' },
      call: { id: callIds[0], number: '5321111111', state: 'acknowledged', attempts: 1, sip_code: 200 },
      acknowledged_by: '5321111111',
    });
    expect(got[2]).toMatchObject({ alert: { id: alertId, state: 'acknowledged' }, acknowledged_by: '5321111111' });
    expect(new Set(got.map((e) => e.id)).size).toBe(3);
    await store.close();
  });

  it('a call ending busy (final) sends call.failed, then its alert alert.unacknowledged; completed sends no call.failed', async () => {
    const { store, account, alert, events, mover } = await rig();
    await store.transaction((tx) => tx.outbox.setTarget(account.id, { url: 'http://127.0.0.1:1/cb', secret: 's' }));
    await alert('busy-one');
    await (await mover()).mover.move('busy', { sipCode: 486, reason: 'Busy Here' });
    expect((await events()).map((e) => [e.type, e.call?.state ?? e.alert.state])).toEqual([
      ['call.failed', 'busy'],
      ['alert.unacknowledged', 'unacknowledged'],
    ]);
    expect((await events())[0].call).toMatchObject({ sip_code: 486, reason: 'Busy Here' });

    await alert('answered-only', ['5322222222']);
    const { mover: m } = await mover();
    await m.move('answered', { sipCode: 200 });
    await m.move('completed');
    expect((await events()).slice(2).map((e) => e.type)).toEqual(['call.answered', 'alert.unacknowledged']);
    await store.close();
  });

  it('a call without an alert (a test call) is ordered by its own id: its answered event goes before its acknowledged one', async () => {
    const { clock, store, account, mover } = await rig();
    await store.transaction((tx) => tx.outbox.setTarget(account.id, { url: 'http://127.0.0.1:1/cb', secret: 's' }));
    const [callId] = await store.transaction((tx) =>
      tx.calls.enqueue([{ accountId: account.id, credentialId: null, source: 'test', phoneNumber: '5323333333', message: 'm' }], clock()),
    );
    const { mover: m } = await mover();
    await m.move('answered', { sipCode: 200 });
    await m.move('acknowledged');
    const rows = (await store.outbox.recent(account.id, 10)).reverse();
    expect(rows.map((e) => [e.type, e.orderKey])).toEqual([
      ['call.answered', callId],
      ['call.acknowledged', callId],
    ]);
    expect((await store.outbox.due(clock(), 10)).map((e) => e.type)).toEqual(['call.answered']);
    expect(JSON.parse(rows[0]!.body).alert).toBeNull();
    await store.close();
  });

  it('resolving sends alert.resolved; the cancelled call sends nothing', async () => {
    const { store, account, alert, events, actions } = await rig();
    await store.transaction((tx) => tx.outbox.setTarget(account.id, { url: 'http://127.0.0.1:1/cb', secret: 's' }));
    const { alertId } = await alert('k');
    await actions.resolve(account.id, alertId, 'api');
    expect((await events()).map((e) => [e.type, e.alert.state])).toEqual([['alert.resolved', 'resolved']]);
    await store.close();
  });

  it('is written in the transaction of the change: a write that fails after emitting leaves no event', async () => {
    const { clock, store, account, alert } = await rig();
    await store.transaction((tx) => tx.outbox.setTarget(account.id, { url: 'http://127.0.0.1:1/cb', secret: 's' }));
    const { alertId } = await alert('k');
    await expect(
      store.transaction(async (tx) => {
        await emitAlertEvent(tx, 'alert.escalated', (await tx.alerts.get(alertId))!, clock(), { step: 2 });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await store.outbox.recent(account.id, 10)).toEqual([]);
    const id = await store.transaction(async (tx) => emitAlertEvent(tx, 'alert.escalated', (await tx.alerts.get(alertId))!, clock(), { step: 2, id: 'forged' }));
    expect(JSON.parse((await store.outbox.get(id!))!.body)).toMatchObject({ id, type: 'alert.escalated', step: 2 });
    await store.close();
  });

  it('trunk events go to every account with a callback, each in its own order: one account waiting on a retry holds up no other', async () => {
    const { clock, store, account } = await rig();
    const other = await store.transaction((tx) => tx.accounts.create({ name: 'b', plan: 'starter' }));
    const quiet = await store.transaction((tx) => tx.accounts.create({ name: 'c', plan: 'starter' }));
    await store.transaction(async (tx) => {
      await tx.outbox.setTarget(account.id, { url: 'http://127.0.0.1:1/a', secret: 's' });
      await tx.outbox.setTarget(other.id, { url: 'http://127.0.0.1:1/b', secret: 's' });
    });
    const trunk = { server: '192.0.2.10:5060', reachable: false, result: 'timeout' };
    const ids = await store.transaction((tx) => emitTrunkEvent(tx, 'trunk.down', trunk, clock()));
    expect(ids).toHaveLength(2);
    expect(await store.outbox.recent(quiet.id, 10)).toEqual([]);
    const [first] = await store.outbox.recent(account.id, 10);
    expect(JSON.parse(first!.body)).toEqual({ id: first!.eventId, type: 'trunk.down', at: new Date(clock()).toISOString(), account_id: account.id, trunk });
    // The first account's event is retried later; the other account's is due now all the same.
    await store.transaction((tx) => tx.outbox.recordAttempt(first!.eventId, { at: clock(), status: 500, error: null, outcome: 'retry', nextAttemptAt: clock() + 60_000 }));
    await store.transaction((tx) => emitTrunkEvent(tx, 'trunk.up', { ...trunk, reachable: true, result: '200 OK' }, clock()));
    expect((await store.outbox.due(clock(), 10)).map((e) => [e.accountId, e.type])).toEqual([
      [other.id, 'trunk.down'],
    ]);
    await store.close();
  });
});
