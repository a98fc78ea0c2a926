import { describe, expect, test } from 'vitest';
import { tempStore } from '../../test/helpers/memory-store';
import { createAccountServices } from '.';

function setup() {
  const store = tempStore(Date.now);
  const account = store.accounts.create({ name: 'A', plan: 'free' });
  const woken: string[][] = [];
  const { testCalls } = createAccountServices({ store, clock: Date.now, onQueued: (ids) => woken.push(ids) });
  return { store, account, testCalls, woken };
}

describe('test calls service', () => {
  test('queues a test call without credential or charge, and wakes the dialer once it is committed', async () => {
    const { store, account, testCalls, woken } = setup();
    const r = await testCalls.place({ accountId: account.id, phoneNumber: '+90 532 123 45 67', message: ' Merhaba ' });
    if (!r.ok) throw new Error(r.code);
    expect(store.calls.get(r.callId)).toMatchObject({ source: 'test', credentialId: null, message: 'Merhaba', state: 'queued' });
    expect(woken).toEqual([[r.callId]]);
    expect(store.usage.usedIn(account.id, new Date().toISOString().slice(0, 7))).toBe(0);
  });

  test('refuses a bad number, an empty or too long message, and a disabled account; nothing is queued', async () => {
    const { store, account, testCalls, woken } = setup();
    const place = (phoneNumber: string, message: string, accountId = account.id) => testCalls.place({ accountId, phoneNumber, message });
    expect(await place('12345', 'x')).toEqual({ ok: false, code: 'invalid_phone_number' });
    expect(await place('5321234567', '   ')).toEqual({ ok: false, code: 'missing_fields' });
    expect(await place('5321234567', 'x'.repeat(5000))).toEqual({ ok: false, code: 'message_too_long' });
    expect(await place('5321234567', 'x', 'acc_missing')).toEqual({ ok: false, code: 'account_disabled' });
    store.accounts.setDisabled(account.id, true);
    expect(await place('5321234567', 'x')).toEqual({ ok: false, code: 'account_disabled' });
    expect(store.calls.list({ limit: 10 })).toEqual([]);
    expect(woken).toEqual([]);
  });

  test('dials the number forms numbers.accept allows, as the API does', async () => {
    const store = tempStore(Date.now);
    const account = store.accounts.create({ name: 'A', plan: 'free' });
    const { testCalls } = createAccountServices({ store, clock: Date.now, numberForms: ['tr-mobile', 'extension'] });
    const r = await testCalls.place({ accountId: account.id, phoneNumber: '1234', message: 'x' });
    if (!r.ok) throw new Error(r.code);
    expect(store.calls.get(r.callId)?.phoneNumber).toBe('1234');
    expect(await testCalls.place({ accountId: account.id, phoneNumber: '02125551212', message: 'x' })).toEqual({ ok: false, code: 'invalid_phone_number' });
  });
});
