import { afterEach, describe, expect, it } from 'vitest';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import type { CallOutcome } from '../call-model';
import type { SelfTestConfig } from '../config/sections/self-test';
import { silentLogger } from '../log';
import type { DialRequest } from '../sip';
import type { Store } from '../store';
import { createSelfTestScheduler, runSelfTest, type SelfTestScheduler } from '.';

// docs/telephony.md "Voice-path self-test": scheduled runs are rows claimed under a lease (the
// lease clock is the caller's on SQLite, so a manual clock drives it), results mark the trunk.
const stores: Store[] = [];
const schedulers: SelfTestScheduler[] = [];
afterEach(async () => {
  for (const s of schedulers.splice(0)) await s.end();
  for (const s of stores.splice(0)) await s.close();
});

const CONFIG: SelfTestConfig = { number: '600', interval_s: 60, trunk: '', duration_s: 1, expect: 'echo' };
const answered: CallOutcome = { code: 'COMPLETED', status: 200, reason: 'message played', remoteHangup: false };

/** A far end that answers and echoes `returned` of the 50 frames (or never answers while `hold` is set). */
function fakeTrunks() {
  const dials: { trunk: string; number: string }[] = [];
  let returned = 50;
  let hold: Promise<void> | null = null;
  const dialOn = async (trunk: string, r: DialRequest): Promise<CallOutcome> => {
    dials.push({ trunk, number: r.number });
    if (hold) {
      await hold;
      return { code: 'ABORTED', status: null, reason: 'stopped by shutdown before the answer' };
    }
    r.mediaCheck?.onReport({ packetsSent: 60, framesPlayed: 50, packetsReceived: returned, echo: { frames: 50, returned } });
    return answered;
  };
  return {
    dials,
    dialOn,
    echo: (n: number) => (returned = n),
    holdUntil: (p: Promise<void>) => (hold = p),
  };
}

async function setup(o: { trunks?: string[]; config?: Partial<SelfTestConfig>; started?: (t: string) => boolean } = {}) {
  const clock = manualClock();
  const store = await tempStore(clock);
  stores.push(store);
  const far = fakeTrunks();
  const marks: [string, boolean, string][] = [];
  const scheduler = (started = o.started ?? (() => true)) => {
    const s = createSelfTestScheduler({
      store,
      clock,
      log: silentLogger(),
      config: { ...CONFIG, ...o.config },
      trunks: o.trunks ?? ['pbx', 'carrier'],
      ringTimeoutS: 5,
      dialOn: far.dialOn,
      markTrunk: async (t, up, reason) => (marks.push([t, up, reason]), true),
      started,
      lookEveryMs: 3_600_000, // looks are driven by tick() here
    });
    schedulers.push(s);
    return s;
  };
  return { clock, store, far, marks, scheduler };
}

describe('self-test scheduler (docs/telephony.md "Voice-path self-test")', () => {
  it('two appliances on one database: each due trunk is tested once, the trunks in turn, then again interval_s later', async () => {
    const { clock, store, far, scheduler } = await setup();
    const a = scheduler();
    const b = scheduler();
    await a.begin();
    await b.begin(); // its schedule rows exist already: nothing moves
    await Promise.all([a.tick(), b.tick()]);
    // Trunk 0 is due at once, trunk 1 of 2 half an interval later.
    expect(far.dials).toEqual([{ trunk: 'pbx', number: '600' }]);
    await Promise.all([a.tick(), b.tick()]);
    expect(far.dials).toHaveLength(1);
    clock.advance(30_000);
    await Promise.all([a.tick(), b.tick()]);
    expect(far.dials.map((d) => d.trunk)).toEqual(['pbx', 'carrier']);
    clock.advance(30_000); // pbx ran at 0: due again at 60 s
    await Promise.all([a.tick(), b.tick()]);
    expect(far.dials.map((d) => d.trunk)).toEqual(['pbx', 'carrier', 'pbx']);
    const results = await store.selfTests.list(10);
    expect(results.map((r) => [r.trunk, r.ok, r.origin])).toEqual([
      ['pbx', true, 'schedule'],
      ['carrier', true, 'schedule'],
      ['pbx', true, 'schedule'],
    ]);
    expect(results[0]).toMatchObject({ expect: 'echo', echoRatio: 1, reason: 'echo: 50 of 50 frames came back in order (100 %)' });
  });

  it('a claim held by an appliance that died is run by another once its lease ran out', async () => {
    const { clock, store, far, scheduler } = await setup({ trunks: ['pbx'] });
    const a = scheduler();
    await a.begin();
    // Another appliance claimed it and died mid-call (ring 5 s + 1 s + 60 s of lease).
    expect(await store.transaction((tx) => tx.selfTests.claim('pbx', clock(), { owner: 'dead', ms: 66_000 }))).toBe(true);
    await a.tick();
    expect(far.dials).toHaveLength(0);
    clock.advance(66_001);
    await a.tick();
    expect(far.dials).toHaveLength(1);
  });

  it('self_test.trunk tests only that trunk; a trunk not started yet is not tested (its failure would be ours)', async () => {
    let started = false;
    const { far, scheduler } = await setup({ config: { trunk: 'carrier' }, started: () => started });
    const a = scheduler();
    await a.begin();
    await a.tick();
    expect(far.dials).toHaveLength(0);
    started = true;
    await a.tick();
    expect(far.dials.map((d) => d.trunk)).toEqual(['carrier']);
  });

  it('interval_s = 0 schedules nothing, and an empty number turns the self-test off', async () => {
    const off = await setup({ config: { interval_s: 0 } });
    const a = off.scheduler();
    await a.begin();
    await a.tick();
    expect(off.far.dials).toHaveLength(0);
    const none = await setup({ config: { number: '' } });
    const b = none.scheduler();
    await b.begin();
    await b.tick(); // tick() itself is for tests; start() set nothing up
    expect(await none.store.transaction((tx) => tx.selfTests.claim('pbx', none.clock(), { owner: 'x', ms: 1000 }))).toBe(false);
  });

  it('a failure marks the trunk down with selftest.failed; a later pass marks it up with selftest.passed, once', async () => {
    const { clock, store, far, marks, scheduler } = await setup({ trunks: ['pbx'] });
    const account = await store.transaction((tx) => tx.accounts.create({ name: 'noc', plan: 'starter' }));
    await store.transaction((tx) => tx.outbox.setTarget(account.id, { url: 'http://127.0.0.1:1/cb', secret: 's' }));
    const a = scheduler();
    await a.begin();
    far.echo(0);
    await a.tick();
    expect(marks).toEqual([['pbx', false, 'self-test failed: no echo: no RTP at all came back (50 frames sent)']]);
    far.echo(45);
    clock.advance(60_000);
    await a.tick();
    clock.advance(60_000);
    await a.tick(); // passes again: no second selftest.passed
    expect(marks.map(([t, up]) => [t, up])).toEqual([
      ['pbx', false],
      ['pbx', true],
      ['pbx', true],
    ]);
    const events = (await store.outbox.recent(account.id, 10)).reverse().map((e) => JSON.parse(e.body));
    expect(events.map((e) => [e.type, e.self_test.trunk, e.self_test.ok])).toEqual([
      ['selftest.failed', 'pbx', false],
      ['selftest.passed', 'pbx', true],
    ]);
    expect(events[1].self_test).toMatchObject({ reason: 'echo: 45 of 50 frames came back in order (90 %)', echo_ratio: 0.9, origin: 'schedule' });
  });

  it("a result written elsewhere (another appliance, `self-test run`) marks the trunk on this appliance's next look", async () => {
    const { clock, store, far, marks, scheduler } = await setup({ trunks: ['pbx'], config: { interval_s: 0 } });
    const a = scheduler();
    await a.begin();
    await a.tick();
    expect(marks).toEqual([]);
    far.echo(10);
    const r = await runSelfTest({ store, clock, log: silentLogger(), dialOn: far.dialOn }, { trunk: 'pbx', config: CONFIG, ringTimeoutS: 5, origin: 'cli' });
    expect(r).toMatchObject({ ok: false, echoRatio: 0.2 });
    await a.tick();
    await a.tick(); // the same result is applied once
    expect(marks).toEqual([['pbx', false, 'self-test failed: echo too weak: 10 of 50 frames came back in order (20 %, at least 80 % needed)']]);
    expect(a.results()).toEqual([{ trunk: 'pbx', ok: false }]);
    // A restarted appliance applies the newest stored result again: the trunk stays down.
    const b = scheduler();
    await b.begin();
    await b.tick();
    expect(marks).toHaveLength(2);
    expect(marks[1]!.slice(0, 2)).toEqual(['pbx', false]);
  });

  it('stopping during a self-test call hangs it up, stores nothing, and leaves the trunk due for another appliance', async () => {
    const { clock, store, far, scheduler } = await setup({ trunks: ['pbx'] });
    let release = () => {};
    far.holdUntil(new Promise<void>((r) => (release = r)));
    const a = scheduler();
    await a.begin();
    const look = a.tick();
    await expect.poll(() => far.dials.length).toBe(1);
    const stopped = a.end();
    release();
    await look;
    await stopped;
    expect(await store.selfTests.list(5)).toEqual([]);
    expect(await store.transaction((tx) => tx.selfTests.claim('pbx', clock(), { owner: 'other', ms: 1000 }))).toBe(true);
  });

  it('a run asked for from the panel (store requestRun) runs once on the next look, on one appliance, even with interval_s = 0', async () => {
    const { clock, store, far, scheduler } = await setup({ config: { interval_s: 0 } });
    const a = scheduler();
    const b = scheduler();
    await a.begin();
    await a.tick();
    expect(far.dials).toHaveLength(0);
    await store.transaction((tx) => tx.selfTests.requestRun('carrier', clock()));
    await Promise.all([a.tick(), b.tick()]);
    expect(far.dials.map((d) => d.trunk)).toEqual(['carrier']);
    expect((await store.selfTests.latest('carrier'))!.ok).toBe(true);
    // Not due again by itself: no schedule with interval_s = 0.
    clock.advance(86_400_000);
    await a.tick();
    expect(far.dials).toHaveLength(1);
  });
});
