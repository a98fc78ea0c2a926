import { describe, expect, test } from 'vitest';
import { tempStore } from '../../test/helpers/memory-store';
import { configSchema } from '../config';
import { createServices } from '../services';
import { parseMonthlyCredit } from '.';

async function setup() {
  const store = await tempStore(Date.now);
  return { store, ...createServices({ store, clock: Date.now, config: configSchema.parse({}) }) };
}

describe('accounts service', () => {
  test('monthly credit as typed: empty is the plan default, up to nine digits, nothing else', () => {
    expect(['', '  ', '0', '250', '007', '999999999'].map(parseMonthlyCredit)).toEqual([null, null, 0, 250, 7, 999_999_999]);
    expect(['-1', '1.5', '1e3', '0x10', 'abc', '1000000000'].map(parseMonthlyCredit)).toEqual(Array(6).fill(undefined));
  });

  test('create checks name, plan (any case) and credit before writing anything', async () => {
    const { store, accounts } = await setup();
    expect(await accounts.create({ name: '  ', plan: 'starter' })).toEqual({ ok: false, code: 'NAME_REQUIRED' });
    expect(await accounts.create({ name: 'D', plan: 'gold' })).toEqual({ ok: false, code: 'INVALID_PLAN' });
    expect(await accounts.create({ name: 'D', plan: 'starter', monthlyCredit: 'many' })).toEqual({ ok: false, code: 'INVALID_CREDIT' });
    expect(await store.accounts.count()).toBe(0);
    const r = await accounts.create({ name: ' NOC ', plan: 'Enterprise', monthlyCredit: '250' });
    expect(r).toMatchObject({ ok: true, owner: null, account: { name: 'NOC', plan: 'enterprise', monthlyCredit: 250 } });
  });

  test('an account with an owner: a taken login or bad e-mail leaves no account behind', async () => {
    const { store, accounts } = await setup();
    const ok = await accounts.create({ name: 'A', plan: 'starter', ownerEmail: 'o@a.test' });
    expect(ok.ok && ok.owner?.generatedPassword).toHaveLength(20);
    expect(ok.ok && (await store.panelUsers.findByLogin('o@a.test'))?.accountId).toBe(ok.ok && ok.account.id);
    expect(await accounts.create({ name: 'B', plan: 'starter', ownerEmail: 'O@A.test' })).toEqual({ ok: false, code: 'LOGIN_TAKEN' });
    expect(await accounts.create({ name: 'C', plan: 'starter', ownerEmail: 'not-an-email' })).toEqual({ ok: false, code: 'INVALID_LOGIN' });
    expect(await accounts.create({ name: 'E', plan: 'starter', ownerEmail: 'e@a.test', ownerPassword: 'short' })).toEqual({
      ok: false,
      code: 'PASSWORD_TOO_SHORT',
    });
    expect(await store.accounts.count()).toBe(1);
  });

  test('two creations racing for one owner login: one account with its owner, the other refused, nothing half-made', async () => {
    const { store, accounts } = await setup();
    const results = await Promise.all([
      accounts.create({ name: 'A', plan: 'starter', ownerEmail: 'same@a.test', ownerPassword: 'long-enough-pw' }),
      accounts.create({ name: 'B', plan: 'starter', ownerEmail: 'same@a.test', ownerPassword: 'long-enough-pw' }),
    ]);
    expect(results.map((r) => (r.ok ? 'ok' : r.code)).sort()).toEqual(['LOGIN_TAKEN', 'ok']);
    expect(await store.accounts.count()).toBe(1);
    expect(await store.panelUsers.listForAccount((await store.accounts.list())[0]!.id)).toHaveLength(1);
  });

  test("set-plan: the account's own credit is kept when not given, cleared when empty; unknown ids are refused", async () => {
    const { accounts } = await setup();
    const created = await accounts.create({ name: 'A', plan: 'starter', monthlyCredit: '40' });
    const id = created.ok ? created.account.id : '';
    expect(await accounts.setPlan(id, { plan: 'professional' })).toMatchObject({ ok: true, account: { plan: 'professional', monthlyCredit: 40 } });
    expect(await accounts.setPlan(id, { plan: 'professional', monthlyCredit: '' })).toMatchObject({ ok: true, account: { monthlyCredit: 50 } });
    expect(await accounts.setPlan(id, { plan: 'gold' })).toEqual({ ok: false, code: 'INVALID_PLAN' });
    expect(await accounts.setPlan(id, { plan: 'free', monthlyCredit: '-3' })).toEqual({ ok: false, code: 'INVALID_CREDIT' });
    expect(await accounts.setPlan('acc_missing', { plan: 'free' })).toEqual({ ok: false, code: 'NO_ACCOUNT' });
  });

  test('disable and enable; unknown ids are refused', async () => {
    const { accounts } = await setup();
    const created = await accounts.create({ name: 'A', plan: 'starter' });
    const id = created.ok ? created.account.id : '';
    expect(await accounts.setDisabled(id, true)).toMatchObject({ ok: true, account: { disabled: true } });
    expect(await accounts.setDisabled(id, false)).toMatchObject({ ok: true, account: { disabled: false } });
    expect(await accounts.setDisabled('acc_missing', true)).toEqual({ ok: false, code: 'NO_ACCOUNT' });
  });
});
