import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testStoreUrl } from '../../test/helpers/postgres';
import { CLAIMED_STATE } from '../call-model';
import { silentLogger } from '../log';
import { createPeopleService } from '../people';
import { createOncallWatch, createSchedulesService } from '../schedules';
import { createStore, type Store } from '../store';
import { createHandoffLoop } from './loop';

/**
 * docs/on-call.md "Hand-off calls" and docs/high-availability.md: two appliances on one
 * PostgreSQL, each with its own on-call watch and hand-off loop, ticking at once: each hand-off
 * is written once, each try is one call, the unconfirmed hand-off raises one alert with one call.
 */
const stores: Store[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

describe('hand-off calls on one PostgreSQL, two appliances', () => {
  it('every try of every schedule is placed once, and each unconfirmed hand-off raises one alert', async () => {
    let now = Date.parse('2026-11-16T05:00:00Z');
    const clock = () => now;
    const url = testStoreUrl()!;
    const dir = mkdtempSync(join(tmpdir(), 'va-pg-handoff-'));
    for (let i = 0; i < 2; i++) stores.push(await createStore({ path: join(dir, `unused-${i}.db`), url, busyTimeoutMs: 1000, clock }));
    const [first] = stores;
    const account = await first!.transaction((tx) => tx.accounts.create({ name: 't', plan: 'starter' }));
    const people = createPeopleService({ store: first!, clock, defaultLanguage: 'tr' });
    for (const [name, phone] of [['Ayşe', '5321111111'], ['Bora', '5322222222']] as const) {
      expect((await people.create(account.id, { name, phones: [phone] })).ok).toBe(true);
    }
    const schedules = createSchedulesService({ store: first!, clock });
    const SCHEDULES = 6;
    for (let i = 0; i < SCHEDULES; i++) {
      const r = await schedules.create(account.id, {
        name: `s${i}`,
        timeZone: 'Europe/Istanbul',
        layers: [{ participants: [{ person: 'Ayşe' }, { person: 'Bora' }], shift: '1h', start: '2026-11-16T08:00' }],
        handoffCall: true,
      });
      expect(r.ok).toBe(true);
    }
    const appliances = stores.map((store) => ({
      watch: createOncallWatch({ store, clock, log: silentLogger(), leaseMs: 30_000 }),
      loop: createHandoffLoop({ store, clock, log: silentLogger(), leaseMs: 30_000, timeZone: 'Europe/Istanbul', language: 'en', timing: { pollMs: 1000 } }),
    }));
    const allTick = async () => {
      await Promise.all(appliances.map((a) => a.watch.tick()));
      await Promise.all(appliances.map((a) => a.loop.tick()));
      await Promise.all(appliances.map((a) => a.loop.tick()));
    };
    const handoffCalls = async () => (await first!.calls.list({ accountId: account.id, limit: 1000 })).filter((c) => c.handoffId !== null);
    /** Ends every hand-off call still queued as not answered (the dialer's part, done here). */
    const nobodyAnswers = async () => {
      for (;;) {
        const c = await first!.transaction((tx) => tx.calls.claim(now, 60_000));
        if (!c) return;
        expect(await first!.transaction((tx) => tx.calls.move(c.id, { from: CLAIMED_STATE, to: 'no_answer', at: now, attempt: c.attempts, finished: true }))).toBe(true);
      }
    };

    // 06:00Z (09:00 local): Bora takes over every schedule.
    now = Date.parse('2026-11-16T06:00:01Z');
    await allTick();
    expect(await handoffCalls()).toHaveLength(SCHEDULES);
    await nobodyAnswers();
    // Both look again and again; the second try comes 2 minutes after the first ended, once.
    for (const step of [5_000, 60_000, 61_001]) {
      now += step;
      await allTick();
    }
    const calls = await handoffCalls();
    expect(calls).toHaveLength(2 * SCHEDULES);
    expect(new Set(calls.map((c) => `${c.handoffId}`)).size).toBe(SCHEDULES);
    await nobodyAnswers();
    now += 5_000;
    await allTick();
    await allTick();
    const handoffs = (await Promise.all((await first!.schedules.list(account.id)).map((s) => first!.handoffs.ofSchedule(s.id, 10)))).flat();
    expect(handoffs).toHaveLength(SCHEDULES);
    expect(handoffs.every((h) => h.state === 'raised' && h.tries === 2 && h.alertId !== null)).toBe(true);
    for (const h of handoffs) {
      const alertCalls = await first!.calls.ofAlert(h.alertId!);
      expect(alertCalls.map((c) => c.phoneNumber)).toEqual(['5321111111']);
      expect((await first!.alerts.get(h.alertId!))!.key).toBe(`handoff:${h.scheduleName}`);
    }
    expect(await handoffCalls()).toHaveLength(2 * SCHEDULES);
  });
});
