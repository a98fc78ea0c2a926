import { describe, expect, it } from 'vitest';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { createAlertActions } from '.';

const TZ = 'Europe/Istanbul';

async function rig() {
  const clock = manualClock();
  const store = await tempStore(clock);
  const actions = createAlertActions({ store, clock, timeZone: TZ });
  const account = await store.transaction((tx) => tx.accounts.create({ name: 'a', plan: 'starter' }));
  /** One alert with a call to each number, charged like the intake charges. */
  const alert = async (key: string | null, numbers: string[]) =>
    store.transaction(async (tx) => {
      const alertId = await tx.alerts.create({ accountId: account.id, credentialId: null, key, source: 'api', message: 'disk full' }, clock());
      await tx.usage.charge(account.id, '2026-11', numbers.length);
      const callIds = await tx.calls.enqueue(
        numbers.map((phoneNumber) => ({ accountId: account.id, credentialId: null, source: 'api' as const, phoneNumber, message: 'disk full', alertId })),
        clock(),
      );
      return { alertId, callIds };
    });
  return { clock, store, actions, account, alert };
}

describe('alert actions', () => {
  it('acknowledging cancels the calls still waiting and gives back the credit of those never dialled', async () => {
    const { store, actions, account, alert } = await rig();
    const { alertId, callIds } = await alert('k', ['5321111111', '5322222222']);
    expect(await store.usage.usedIn(account.id, '2026-11')).toBe(2);
    const r = await actions.acknowledge(account.id, alertId, 'api');
    expect(r).toMatchObject({ ok: true, changed: true, alert: { state: 'acknowledged', acknowledgedBy: 'api' } });
    // Ids made in the same millisecond have no order of their own: compare as sets.
    expect(r.ok && [...r.cancelledCallIds].sort()).toEqual([...callIds].sort());
    expect((await Promise.all(callIds.map((id) => store.calls.get(id)))).map((c) => c!.state)).toEqual(['cancelled', 'cancelled']);
    expect(await store.usage.usedIn(account.id, '2026-11')).toBe(0);
    await store.close();
  });

  it('a call already dialled keeps its credit when cancelled; resolving twice changes nothing the second time', async () => {
    const { clock, store, actions, account, alert } = await rig();
    const { alertId, callIds } = await alert('k', ['5321111111']);
    // Dialled once, busy, waiting to retry.
    const claimed = (await store.transaction((tx) => tx.calls.claim(clock(), 1000)))!;
    await store.transaction((tx) => tx.calls.move(claimed.id, { from: 'dialing', to: 'queued', at: clock(), attempt: 1, runAfter: clock() + 60_000 }));
    const first = await actions.resolve(account.id, alertId, 'api');
    expect(first).toMatchObject({ ok: true, changed: true, cancelledCallIds: callIds, alert: { state: 'resolved' } });
    expect(await store.usage.usedIn(account.id, '2026-11')).toBe(1);
    expect(await actions.resolve(account.id, alertId, 'api')).toMatchObject({ ok: true, changed: false, cancelledCallIds: [] });
    await store.close();
  });

  it("another account's alert is not found, like a missing one; resolve by key finds only an open alert", async () => {
    const { store, actions, account, alert } = await rig();
    const { alertId } = await alert('disk/db1', ['5321111111']);
    const other = await store.transaction((tx) => tx.accounts.create({ name: 'b', plan: 'starter' }));
    expect(await actions.acknowledge(other.id, alertId, 'api')).toEqual({ ok: false, code: 'alert_not_found' });
    expect(await actions.resolveByKey(account.id, 'nothing', 'api')).toEqual({ alert: null, cancelledCallIds: [] });
    expect((await actions.resolveByKey(account.id, 'disk/db1', 'api')).alert?.state).toBe('resolved');
    expect((await actions.resolveByKey(account.id, 'disk/db1', 'api')).alert).toBeNull();
    await store.close();
  });
});
