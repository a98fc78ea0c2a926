import { describe, expect, it } from 'vitest';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { createAlertActions, markUnacknowledged } from '../alerts';
import { createPoliciesService } from '../escalation';
import { createSchedulesService } from '../schedules';
import { createDeskService, DESK_ACTOR } from './service';

const TZ = 'Europe/Istanbul';

async function rig() {
  const clock = manualClock('2026-11-25T12:00:00Z');
  const store = await tempStore(clock);
  const desk = createDeskService({ store, clock, alerts: createAlertActions({ store, clock, timeZone: TZ }) });
  const account = await store.transaction((tx) => tx.accounts.create({ name: 'noc', plan: 'starter' }));
  const alert = (message: string) =>
    store.transaction(async (tx) => {
      const id = await tx.alerts.create({ accountId: account.id, credentialId: null, key: message, source: 'api', message }, clock());
      clock.advance(1000);
      return id;
    });
  return { clock, store, desk, account, alert };
}

describe('voice desk service', () => {
  it('a PIN is shown once, stored only as a salted hash, names its account; a new one retires the old', async () => {
    const { store, desk, account } = await rig();
    const first = await desk.newPin(account.id);
    expect(first).toMatchObject({ ok: true, accountId: account.id, pin: expect.stringMatching(/^\d{8}$/) });
    const pin = first.ok ? first.pin : '';
    const stored = (await store.voiceDesk.get(account.id))!.pinHash!;
    expect(stored).toMatch(/^\$argon2id\$/);
    expect(stored).not.toContain(pin);
    expect(await desk.accountByPin(pin)).toBe(account.id);
    expect(await desk.accountByPin(`${pin}0`)).toBeNull();
    expect(await desk.accountByPin('')).toBeNull();
    const second = await desk.newPin(account.id);
    expect(second.ok && second.pin).not.toBe(pin);
    expect(await desk.accountByPin(pin)).toBeNull();
    expect(await desk.accountByPin(second.ok ? second.pin : '')).toBe(account.id);
    expect(await desk.newPin('acc_missing')).toEqual({ ok: false, code: 'account_not_found' });
    // A disabled account's PIN lets nobody in.
    await store.transaction((tx) => tx.accounts.setDisabled(account.id, true));
    expect(await desk.accountByPin(second.ok ? second.pin : '')).toBeNull();
    await store.close();
  });

  it('reads open and unacknowledged alerts newest first; acts on them as voice-desk through the alert actions', async () => {
    const { store, desk, account, alert, clock } = await rig();
    const a1 = await alert('first');
    const a2 = await alert('second');
    const a3 = await alert('third');
    await store.transaction(async (tx) => markUnacknowledged({ store: tx, timeZone: TZ }, (await tx.alerts.get(a1))!, clock(), 'nobody answered'));
    await desk.resolve(account.id, a2);
    expect((await desk.pending(account.id)).map((a) => [a.id, a.state])).toEqual([
      [a3, 'open'],
      [a1, 'unacknowledged'],
    ]);
    const r = await desk.acknowledge(account.id, a3);
    expect(r).toMatchObject({ ok: true, changed: true, alert: { state: 'acknowledged', acknowledgedBy: DESK_ACTOR } });
    expect((await store.alerts.get(a2))!.stateReason).toBe('resolved by voice-desk');
    // The callbacks' outbox holds the events, as for the API's actions.
    const other = await store.transaction((tx) => tx.accounts.create({ name: 'other', plan: 'starter' }));
    expect(await desk.acknowledge(other.id, a1)).toEqual({ ok: false, code: 'alert_not_found' });
    await store.close();
  });

  it('keypad 0 goes to the first number of the first step: the desk policy, else the oldest active key default policy; a schedule gives its on-call', async () => {
    const { store, desk, account, clock } = await rig();
    expect(await desk.onCallNumber(account.id)).toBeNull();
    const policies = createPoliciesService({ store, clock });
    const schedules = createSchedulesService({ store, clock });
    const s = await schedules.create(account.id, { name: 'noc', timeZone: 'UTC', layers: [{ participants: [{ name: 'Deniz', number: '5324444444' }], shift: '1d', start: '2026-01-01T00:00' }] });
    expect(s.ok).toBe(true);
    const keyA = await store.transaction((tx) => tx.credentials.create(account.id));
    clock.advance(1000);
    const keyB = await store.transaction((tx) => tx.credentials.create(account.id));
    const p1 = await policies.create(account.id, { name: 'day', steps: [{ numbers: ['5321111111'], wait_s: 60 }] });
    const p2 = await policies.create(account.id, { name: 'oncall', steps: [{ numbers: [], schedules: ['noc'], wait_s: 60 }, { numbers: ['5329999999'], wait_s: 60 }] });
    expect(p1.ok && p2.ok).toBe(true);
    // The newer key's default is not looked at while the oldest active key is there.
    await policies.setDefault(account.id, keyB.apiKey, 'oncall');
    expect(await desk.onCallNumber(account.id)).toBeNull();
    await policies.setDefault(account.id, keyA.apiKey, 'day');
    expect(await desk.onCallNumber(account.id)).toBe('5321111111');
    await store.transaction((tx) => tx.credentials.revoke(keyA.apiKey));
    expect(await desk.onCallNumber(account.id)).toBe('5324444444');
    // The desk's own policy comes first.
    await desk.setPolicy(account.id, 'day');
    expect(await desk.onCallNumber(account.id)).toBe('5321111111');
    expect(await desk.setPolicy(account.id, 'nope')).toEqual({ ok: false, code: 'policy_not_found' });
    expect(await desk.setPolicy('acc_missing', 'day')).toEqual({ ok: false, code: 'account_not_found' });
    await store.close();
  });
});
