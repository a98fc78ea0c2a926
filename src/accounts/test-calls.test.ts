import { describe, expect, test } from 'vitest';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { periodOf } from '../credit';
import type { PanelRole } from '../store';
import { createTestCallsService } from '.';

const TZ = 'Europe/Istanbul';

async function setup({ trunk = true, plan = 'free', credit = null as number | null } = {}) {
  const clock = manualClock();
  const store = await tempStore(clock);
  const account = await store.transaction((tx) => tx.accounts.create({ name: 'A', plan: plan as 'free', monthlyCredit: credit }));
  const woken: string[][] = [];
  const testCalls = createTestCallsService({
    store,
    clock,
    onQueued: (ids) => woken.push(ids),
    testCalls: { timeZone: TZ, trunkConfigured: () => trunk },
  });
  const place = (phoneNumber: string, role: PanelRole = 'owner', message = 'Merhaba', accountId = account.id) =>
    testCalls.place({ accountId, phoneNumber, message, role });
  const used = () => store.usage.usedIn(account.id, periodOf(clock(), TZ));
  /** An API call of the account to `phone`, which makes the number one the owner may test. */
  const calledBefore = (phone: string) =>
    store.transaction((tx) =>
      tx.calls.enqueue([{ accountId: account.id, credentialId: null, source: 'api', phoneNumber: phone, message: 'x', charged: false }], clock()),
    );
  return { store, clock, account, place, used, woken, calledBefore };
}

describe('test calls service', () => {
  test("an administrator's test call goes anywhere, charges nothing, has its own alert, and wakes the dialer once committed", async () => {
    const { store, place, used, woken } = await setup();
    const r = await place('+90 532 123 45 67', 'admin', ' Merhaba ');
    if (!r.ok) throw new Error(r.code);
    expect(await store.calls.get(r.callId)).toMatchObject({ source: 'test', credentialId: null, message: 'Merhaba', state: 'queued', charged: false, alertId: r.alertId });
    expect(await store.alerts.get(r.alertId)).toMatchObject({ source: 'test', state: 'open', message: 'Merhaba' });
    expect(woken).toEqual([[r.callId]]);
    expect(await used()).toBe(0);
  });

  test("an owner's test call costs one credit and goes only to a number the account has called (an admin's test call allows one)", async () => {
    const { store, place, used, calledBefore } = await setup({ plan: 'starter' });
    expect(await place('5321234567')).toEqual({ ok: false, code: 'number_not_allowed' });
    await calledBefore('5321234567');
    const r = await place('0532 123 45 67');
    expect(r.ok && (await store.calls.get(r.callId))).toMatchObject({ charged: true, source: 'test' });
    expect(await used()).toBe(1);
    expect(await place('5559998877')).toEqual({ ok: false, code: 'number_not_allowed' });
    expect((await place('5559998877', 'admin')).ok).toBe(true);
    expect((await place('5559998877')).ok).toBe(true);
    expect(await used()).toBe(2);
  });

  test('an owner without credit is refused and says so; nothing is queued', async () => {
    const { store, place, calledBefore, used } = await setup({ credit: 0 });
    await calledBefore('5321234567');
    expect(await place('5321234567')).toEqual({ ok: false, code: 'insufficient_credit' });
    expect(await used()).toBe(0);
    expect((await store.calls.list({ limit: 10 })).filter((c) => c.source === 'test')).toEqual([]);
    expect((await place('5321234567', 'admin')).ok).toBe(true);
  });

  test('an owner places at most 3 test calls in 10 minutes, even when racing; then again', async () => {
    const { clock, place, calledBefore, used } = await setup({ plan: 'starter' });
    await calledBefore('5321234567');
    const burst = await Promise.all(Array.from({ length: 6 }, () => place('5321234567')));
    expect(burst.map((r) => (r.ok ? 'ok' : r.code)).sort()).toEqual(['ok', 'ok', 'ok', 'rate_limited', 'rate_limited', 'rate_limited']);
    expect(await used()).toBe(3);
    clock.advance(10 * 60_000 + 1);
    expect((await place('5321234567')).ok).toBe(true);
  });

  test('with no SIP trunk configured every test call is refused (like the CLI), saying why', async () => {
    const { store, place } = await setup({ trunk: false });
    expect(await place('5321234567', 'admin')).toEqual({ ok: false, code: 'no_trunk' });
    expect(await store.calls.list({ limit: 10 })).toEqual([]);
  });

  test('refuses a bad number, an empty or too long message, and a disabled account; nothing is queued', async () => {
    const { store, account, place, woken } = await setup();
    expect(await place('12345', 'admin', 'x')).toEqual({ ok: false, code: 'invalid_phone_number' });
    expect(await place('5321234567', 'admin', '   ')).toEqual({ ok: false, code: 'missing_fields' });
    expect(await place('5321234567', 'admin', 'x'.repeat(5000))).toEqual({ ok: false, code: 'message_too_long' });
    expect(await place('5321234567', 'admin', 'x', 'acc_missing')).toEqual({ ok: false, code: 'account_disabled' });
    await store.transaction((tx) => tx.accounts.setDisabled(account.id, true));
    expect(await place('5321234567', 'admin', 'x')).toEqual({ ok: false, code: 'account_disabled' });
    expect(await store.calls.list({ limit: 10 })).toEqual([]);
    expect(woken).toEqual([]);
  });

  test('dials the number forms numbers.accept allows, as the API does', async () => {
    const store = await tempStore(Date.now);
    const account = await store.transaction((tx) => tx.accounts.create({ name: 'A', plan: 'free' }));
    const testCalls = createTestCallsService({
      store,
      clock: Date.now,
      numberForms: ['tr-mobile', 'extension'],
      testCalls: { timeZone: 'Europe/Istanbul', trunkConfigured: () => true },
    });
    const r = await testCalls.place({ accountId: account.id, phoneNumber: '1234', message: 'x', role: 'admin' });
    if (!r.ok) throw new Error(r.code);
    expect((await store.calls.get(r.callId))?.phoneNumber).toBe('1234');
    expect(await testCalls.place({ accountId: account.id, phoneNumber: '02125551212', message: 'x', role: 'admin' })).toEqual({ ok: false, code: 'invalid_phone_number' });
  });
});
