import { describe, expect, it } from 'vitest';
import type { CallState } from '../call-model';
import { silentLogger } from '../log';
import type { Store } from '../store';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { beginEscalation, createEscalationEngine, createPoliciesService, escalationPlan, FIRST_STEP_ORDINAL } from '.';

const TZ = 'Europe/Istanbul';
const A = '5321111111';
const B = '5322222222';

async function rig(o: { rounds?: number; credit?: number; waits?: [number, number] } = {}) {
  const clock = manualClock();
  const store = await tempStore(clock);
  const account = await store.transaction((tx) => tx.accounts.create({ name: 'a', plan: 'starter', monthlyCredit: o.credit ?? 100 }));
  const policies = createPoliciesService({ store, clock });
  const [w1, w2] = o.waits ?? [60, 60];
  const created = await policies.create(account.id, { name: 'oncall', steps: [{ numbers: [A], wait_s: w1 }, { numbers: [B], wait_s: w2 }], rounds: o.rounds ?? 1 });
  if (!created.ok) throw new Error(JSON.stringify(created));
  const policy = created.policy;
  const engine = () => createEscalationEngine({ store, clock, log: silentLogger(), timeZone: TZ });
  /** What the intake does for a request naming the policy. */
  const alert = () =>
    store.transaction(async (tx) => {
      const now = clock();
      const alertId = await tx.alerts.create({ accountId: account.id, credentialId: null, key: null, source: 'api', message: 'disk full' }, now);
      const plan = escalationPlan(policy, []);
      await tx.usage.tryCharge(account.id, '2026-11', plan.steps[0]!.numbers.length, account.monthlyCredit);
      await tx.calls.enqueue(
        plan.steps[0]!.numbers.map((phoneNumber) => ({ accountId: account.id, credentialId: null, source: 'api' as const, phoneNumber, message: 'disk full', alertId, escalationOrdinal: FIRST_STEP_ORDINAL })),
        now,
      );
      await beginEscalation(tx, { alertId, accountId: account.id, credentialId: null, policy, plan, message: 'disk full', now });
      return alertId;
    });
  return { clock, store, engine, alert, account };
}

/** Plays the dialer: the alert's waiting call is claimed and ends in `to`. */
async function endWaitingCall(store: Store, clock: () => number, alertId: string, to: CallState): Promise<string> {
  const call = (await store.calls.ofAlert(alertId)).find((c) => c.state === 'queued')!;
  const claimed = (await store.transaction((tx) => tx.calls.claim(clock(), 30_000)))!;
  expect(claimed.id).toBe(call.id);
  await store.transaction(async (tx) => {
    await tx.calls.move(call.id, { from: 'dialing', to, at: clock(), attempt: claimed.attempts, finished: true });
    await tx.escalations.wakeUp([alertId], clock());
  });
  return call.id;
}
const numbersCalled = async (store: Store, alertId: string) => (await store.calls.ofAlert(alertId)).map((c) => `${c.phoneNumber}#${c.escalationOrdinal}`);

describe('escalation engine', () => {
  it('calls the next step only after every call of this one ended and wait_s passed', async () => {
    const { clock, store, engine, alert } = await rig();
    const e = engine();
    const alertId = await alert();
    await e.tick();
    expect(await numbersCalled(store, alertId)).toEqual([`${A}#1`]);
    await endWaitingCall(store, clock, alertId, 'completed'); // answered, nobody pressed 1
    clock.advance(59_000);
    await e.tick();
    expect(await numbersCalled(store, alertId)).toEqual([`${A}#1`]);
    clock.advance(1_000);
    await e.tick();
    expect(await numbersCalled(store, alertId)).toEqual([`${A}#1`, `${B}#2`]);
    expect(await store.escalations.get(alertId)).toMatchObject({ round: 1, step: 1, state: 'running' });
  });

  it('a call still going on (a busy retry inside the step) holds the step past wait_s', async () => {
    const { clock, store, engine, alert } = await rig();
    const e = engine();
    const alertId = await alert();
    const claimed = (await store.transaction((tx) => tx.calls.claim(clock(), 30_000)))!;
    await store.transaction((tx) => tx.calls.move(claimed.id, { from: 'dialing', to: 'queued', at: clock(), attempt: 1, runAfter: clock() + 120_000 })); // busy, retry later
    clock.advance(90_000);
    await e.tick();
    expect(await numbersCalled(store, alertId)).toEqual([`${A}#1`]);
    clock.advance(30_000);
    await endWaitingCall(store, clock, alertId, 'busy');
    await e.tick();
    expect(await numbersCalled(store, alertId)).toEqual([`${A}#1`, `${B}#2`]);
  });

  it('an acknowledgement stops it: no further step', async () => {
    const { clock, store, engine, alert } = await rig();
    const e = engine();
    const alertId = await alert();
    await endWaitingCall(store, clock, alertId, 'acknowledged');
    await store.transaction((tx) => tx.alerts.move(alertId, { from: 'open', to: 'acknowledged', at: clock(), acknowledgedBy: A }));
    clock.advance(600_000);
    await e.tick();
    expect(await numbersCalled(store, alertId)).toEqual([`${A}#1`]);
    expect(await store.escalations.get(alertId)).toMatchObject({ state: 'done', reason: 'alert acknowledged' });
  });

  it('rounds: 2 with nobody pressing: the list twice, then the alert is unacknowledged', async () => {
    const { clock, store, engine, alert } = await rig({ rounds: 2 });
    const e = engine();
    const alertId = await alert();
    for (let i = 0; i < 4; i++) {
      await endWaitingCall(store, clock, alertId, 'no_answer');
      clock.advance(60_000);
      await e.tick();
    }
    expect(await numbersCalled(store, alertId)).toEqual([`${A}#1`, `${B}#2`, `${A}#3`, `${B}#4`]);
    expect(await store.alerts.get(alertId)).toMatchObject({ state: 'unacknowledged', stateReason: 'every step called 2 time(s), nobody pressed 1' });
    expect((await store.escalations.get(alertId))!.state).toBe('done');
  });

  it('credit running out stops it with the reason; nothing more is queued or charged', async () => {
    const { clock, store, engine, alert, account } = await rig({ credit: 1 });
    const e = engine();
    const alertId = await alert();
    await endWaitingCall(store, clock, alertId, 'completed');
    clock.advance(60_000);
    await e.tick();
    expect(await numbersCalled(store, alertId)).toEqual([`${A}#1`]);
    expect(await store.alerts.get(alertId)).toMatchObject({ state: 'unacknowledged', stateReason: 'Insufficient call credit' });
    expect(await store.usage.usedIn(account.id, '2026-11')).toBe(1);
  });

  it('resumes from the store after a restart: the next step once, on time', async () => {
    const { clock, store, engine, alert } = await rig();
    const alertId = await alert();
    await engine().tick();
    await endWaitingCall(store, clock, alertId, 'completed');
    clock.advance(30_000); // the process dies in the middle of the wait; a new engine starts
    const after = engine();
    await after.tick();
    expect(await numbersCalled(store, alertId)).toEqual([`${A}#1`]);
    clock.advance(30_000);
    await after.tick();
    await after.tick();
    await engine().tick(); // even a second engine on the same store starts nothing twice
    expect(await numbersCalled(store, alertId)).toEqual([`${A}#1`, `${B}#2`]);
  });

  it('keypad 3 (skip the wait) passes to the next step as soon as the call ended', async () => {
    const { clock, store, engine, alert } = await rig();
    const e = engine();
    const alertId = await alert();
    await endWaitingCall(store, clock, alertId, 'completed');
    await store.transaction((tx) => tx.escalations.skipWait([alertId], clock()));
    await e.tick();
    expect(await numbersCalled(store, alertId)).toEqual([`${A}#1`, `${B}#2`]);
  });
});

describe('escalation policies', () => {
  it('validates steps and numbers once, for every caller', async () => {
    const { store, account } = await rig();
    const svc = createPoliciesService({ store, clock: () => 0 });
    expect(await svc.create(account.id, { name: 'x', steps: [] })).toMatchObject({ ok: false, code: 'invalid_policy' });
    expect(await svc.create(account.id, { name: 'x', steps: [{ numbers: ['12'] }] })).toMatchObject({ ok: false, code: 'invalid_policy', problem: 'steps.0.numbers: invalid phone number: 12' });
    expect(await svc.create(account.id, { name: 'oncall', steps: [{ numbers: [A] }] })).toEqual({ ok: false, code: 'policy_name_taken' });
    const ok = await svc.create(account.id, { name: 'night', steps: [{ numbers: ['0532 111 11 11', '+905321111111'] }] });
    expect(ok).toMatchObject({ ok: true, policy: { name: 'night', rounds: 2, steps: [{ numbers: [A], wait_s: 300 }] } });
  });
});
