import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { httpTestApp } from '../../test/helpers/http-app';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { createEscalationEngine, createPoliciesService } from '../escalation';
import { silentLogger } from '../log';
import type { Store } from '../store';
import { createSchedulesService } from '.';

/**
 * docs/on-call.md "On-call schedules": an escalation step naming a schedule calls whoever is on
 * call in it at the instant the step starts, through the real intake (POST /api/call) and the
 * escalation engine, on an injected clock.
 */
const AYSE = '5321111111';
const BORA = '5322222222';
const BACKUP = '5329999999';

let clock: ReturnType<typeof manualClock>;
let store: Store;

beforeEach(async () => {
  // Sunday 2026-11-15 20:50 in Istanbul: Ayşe's 12h shift (09:00–21:00 local) ends in 10 minutes.
  clock = manualClock('2026-11-15T17:50:00Z');
  store = await tempStore(clock);
});
afterEach(() => store.close());

async function rig() {
  const acc = await store.transaction((tx) => tx.accounts.create({ name: 't', plan: 'starter', monthlyCredit: 100 }));
  const cred = await store.transaction((tx) => tx.credentials.create(acc.id));
  const schedules = createSchedulesService({ store, clock });
  const s = await schedules.create(acc.id, {
    name: 'noc',
    timeZone: 'Europe/Istanbul',
    layers: [{ participants: [{ name: 'Ayşe', number: AYSE }, { name: 'Bora', number: BORA }], shift: '12h', start: '2026-11-15T09:00' }],
  });
  expect(s.ok).toBe(true);
  const policies = createPoliciesService({ store, clock });
  const p = await policies.create(acc.id, { name: 'oncall', steps: [{ numbers: [], schedules: ['noc'], wait_s: 300 }, { numbers: [BACKUP], schedules: ['noc'], wait_s: 300 }], rounds: 1 });
  expect(p).toMatchObject({ ok: true, policy: { steps: [{ numbers: [], schedules: ['noc'], wait_s: 300 }, { numbers: [BACKUP], schedules: ['noc'], wait_s: 300 }] } });
  const app = httpTestApp(store, clock);
  const engine = createEscalationEngine({ store, clock, log: silentLogger(), timeZone: 'Europe/Istanbul' });
  return { acc, cred, app, engine, schedules, policies };
}

/** Calls of the alert as number#step, by step then number (calls queued together share a millisecond). */
const called = async (alertId: string) =>
  (await store.calls.ofAlert(alertId)).map((c) => `${c.phoneNumber}#${c.escalationOrdinal}`).sort((a, b) => a.split('#')[1]!.localeCompare(b.split('#')[1]!) || a.localeCompare(b));

describe('escalation steps naming schedules', () => {
  it('the first step (at intake) calls who is on call then; a later step calls who is on call when it starts', async () => {
    const { cred, app, engine } = await rig();
    const r = await app.handle(
      new Request('http://localhost/api/call', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ api_key: cred.apiKey, api_secret: cred.apiSecret, error_message: 'Core switch down', policy: 'oncall' }),
      }),
    );
    const body = (await r.json()) as { alert_id: string };
    expect(r.status).toBe(200);
    expect(await called(body.alert_id)).toEqual([`${AYSE}#1`]);

    // The first call ends unanswered; 21:00 local passes (Bora's shift), then the wait ends.
    const claimed = (await store.transaction((tx) => tx.calls.claim(clock(), 30_000)))!;
    await store.transaction((tx) => tx.calls.move(claimed.id, { from: 'dialing', to: 'no_answer', at: clock(), attempt: claimed.attempts, finished: true }));
    clock.advance(15 * 60_000); // 18:05Z, 21:05 local
    await engine.tick();
    expect(await called(body.alert_id)).toEqual([`${AYSE}#1`, `${BORA}#2`, `${BACKUP}#2`]);
  });

  it('an override in force when the step starts is who gets called', async () => {
    const { cred, app, schedules, acc } = await rig();
    await schedules.addOverride(acc.id, 'noc', { from: '2026-11-15T17:00:00Z', to: '2026-11-15T18:00:00Z', number: '5324444444', name: 'Deniz' });
    const r = await app.handle(
      new Request('http://localhost/api/call', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ api_key: cred.apiKey, api_secret: cred.apiSecret, error_message: 'x', policy: 'oncall' }),
      }),
    );
    const { alert_id } = (await r.json()) as { alert_id: string };
    expect(await called(alert_id)).toEqual(['5324444444#1']);
  });

  it('a policy naming a schedule the account does not have is refused', async () => {
    const { acc, policies } = await rig();
    expect(await policies.create(acc.id, { name: 'x', steps: [{ numbers: [], schedules: ['nope'] }] })).toEqual({
      ok: false,
      code: 'invalid_policy',
      problem: 'steps.0.schedules: no such schedule: nope',
    });
    expect(await policies.create(acc.id, { name: 'x', steps: [{ numbers: [] }] })).toMatchObject({ ok: false, code: 'invalid_policy' });
  });
});
