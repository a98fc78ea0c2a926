import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { silentLogger } from '../log';
import type { Store } from '../store';
import { createOncallWatch, createSchedulesService } from '.';

/** docs/on-call.md "On-call schedules": `oncall.changed` when a schedule's on-call person changes, once. */
let clock: ReturnType<typeof manualClock>;
let store: Store;

beforeEach(async () => {
  // 08:00 in Istanbul: Ayşe's day until 09:00 local (06:00Z).
  clock = manualClock('2026-11-16T05:00:00Z');
  store = await tempStore(clock);
});
afterEach(() => store.close());

async function rig() {
  const account = await store.transaction((tx) => tx.accounts.create({ name: 't', plan: 'starter' }));
  await store.transaction((tx) => tx.outbox.setTarget(account.id, { url: 'http://127.0.0.1:1/cb', secret: 's' }));
  const schedules = createSchedulesService({ store, clock });
  const r = await schedules.create(account.id, {
    name: 'noc',
    timeZone: 'Europe/Istanbul',
    layers: [{ participants: [{ name: 'Ayşe', number: '5321111111' }, { name: 'Bora', number: '5322222222' }], shift: '1d', start: '2026-11-15T09:00' }],
  });
  if (!r.ok) throw new Error(JSON.stringify(r));
  const events = async () =>
    (await store.outbox.recent(account.id, 100))
      .reverse()
      .filter((e) => e.type === 'oncall.changed')
      .map((e) => JSON.parse(e.body));
  const watch = () => createOncallWatch({ store, clock, log: silentLogger(), leaseMs: 30_000 });
  return { account, schedule: r.schedule, schedules, events, watch };
}

const AYSE = { name: 'Ayşe', number: '5321111111' };
const BORA = { name: 'Bora', number: '5322222222' };

describe('oncall.changed', () => {
  it('is written once at the hand-off, with schedule, from, to and the instant of the change', async () => {
    const { account, schedule, events, watch } = await rig();
    const w = watch();
    expect(await w.tick()).toBe(0);
    clock.set('2026-11-16T05:59:59.999Z');
    expect(await w.tick()).toBe(0);
    clock.set('2026-11-16T06:00:02Z');
    expect(await w.tick()).toBe(1);
    expect(await w.tick()).toBe(0);
    expect(await events()).toEqual([
      { id: expect.stringMatching(/^evt_/), type: 'oncall.changed', at: '2026-11-16T06:00:00.000Z', account_id: account.id, schedule: 'noc', schedule_id: schedule.id, from: AYSE, to: BORA },
    ]);
  });

  it('two appliances watching the same database write each change exactly once', async () => {
    const { events, watch } = await rig();
    const [a, b] = [watch(), watch()];
    clock.set('2026-11-16T06:00:01Z');
    const counts = await Promise.all([a.tick(), b.tick()]);
    expect(counts.reduce((x, y) => x + y, 0)).toBe(1);
    expect(await Promise.all([a.tick(), b.tick()])).toEqual([0, 0]);
    expect((await events()).map((e) => e.at)).toEqual(['2026-11-16T06:00:00.000Z']);
  });

  it('a claim held by another appliance is left alone until its lease runs out', async () => {
    const { schedule, events, watch } = await rig();
    clock.set('2026-11-16T06:00:01Z');
    // Another appliance claimed the row and hung.
    const held = await store.transaction((tx) => tx.schedules.claimWatch(clock(), 10, { owner: 'hung', ms: 300 }));
    expect(held.map((s) => s.id)).toEqual([schedule.id]);
    const w = watch();
    expect(await w.tick()).toBe(0);
    // The lease runs out: by the caller's clock on SQLite, by the database's on PostgreSQL.
    clock.advance(1_000);
    await new Promise((r) => setTimeout(r, 400));
    expect(await w.tick()).toBe(1);
    // The hung appliance wakes up: its lease is gone, it records nothing.
    expect(await store.transaction((tx) => tx.schedules.finishWatch(schedule.id, 'hung', { name: null, number: null, nextAt: 0 }))).toBe(false);
    expect(await events()).toHaveLength(1);
  });

  it('after a long stop every change is written in order, each at its instant; an override is a change too', async () => {
    const { account, schedules, events, watch } = await rig();
    clock.set('2026-11-18T07:00:00Z');
    expect(await watch().tick()).toBe(3);
    expect((await events()).map((e) => [e.at, e.from.name, e.to.name])).toEqual([
      ['2026-11-16T06:00:00.000Z', 'Ayşe', 'Bora'],
      ['2026-11-17T06:00:00.000Z', 'Bora', 'Ayşe'],
      ['2026-11-18T06:00:00.000Z', 'Ayşe', 'Bora'],
    ]);
    await schedules.addOverride(account.id, 'noc', { from: '2026-11-18T08:00:00Z', to: '2026-11-18T09:00:00Z', number: '5324444444' });
    clock.set('2026-11-18T08:00:00Z');
    expect(await watch().tick()).toBe(1);
    clock.set('2026-11-18T09:00:00Z');
    expect(await watch().tick()).toBe(1);
    expect((await events()).slice(3).map((e) => [e.at, e.from, e.to])).toEqual([
      ['2026-11-18T08:00:00.000Z', BORA, { name: null, number: '5324444444' }],
      ['2026-11-18T09:00:00.000Z', { name: null, number: '5324444444' }, BORA],
    ]);
  });
});
