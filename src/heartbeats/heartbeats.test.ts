import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { acknowledgeAlert } from '../alerts';
import { createPoliciesService } from '../escalation';
import { silentLogger } from '../log';
import { heartbeatJson } from '../outward';
import type { Store } from '../store';
import { createHeartbeatChecker, createHeartbeatService, type HeartbeatChecker, type HeartbeatInput } from '.';

// docs/on-call.md "Heartbeats", through the service and the checker on a real SQLite store with a
// clock the test moves (the lease clock on SQLite is this clock: dialect.ts).
const TZ = 'Europe/Istanbul';
const A = '5321111111';
const B = '5322222222';
const MIN = 60_000;

let clock: ReturnType<typeof manualClock>;
let store: Store;
let accountId: string;
const checkers: HeartbeatChecker[] = [];

beforeEach(async () => {
  clock = manualClock();
  store = await tempStore(clock);
  accountId = (await store.transaction((tx) => tx.accounts.create({ name: 'a', plan: 'starter', monthlyCredit: 100 }))).id;
});
afterEach(async () => {
  for (const c of checkers.splice(0)) await c.end();
  await store.close();
});

const service = () => createHeartbeatService({ store, clock, timeZone: TZ });
function checker(o: { node?: string; language?: 'tr' | 'en'; leaseMs?: number; onQueued?: (ids: string[]) => void } = {}) {
  const c = createHeartbeatChecker({
    store,
    clock,
    log: silentLogger(),
    node: o.node ?? 'host:/var/lib/voice-alert',
    leaseMs: o.leaseMs ?? 30_000,
    language: o.language ?? 'en',
    timeZone: TZ,
    onQueued: o.onQueued,
  });
  checkers.push(c);
  return c;
}

async function create(input: Partial<HeartbeatInput> = {}) {
  const r = await service().create(accountId, { name: 'backup', interval_s: 300, to: [A], ...input });
  if (!r.ok) throw new Error(JSON.stringify(r));
  return r;
}
const token = (pingUrl: string) => pingUrl.replace('/heartbeat/', '');
const stateOf = async (id: string) => heartbeatJson((await store.heartbeats.find(accountId, id))!).state;

describe('heartbeats: states and the alert', () => {
  it('new until the first ping and never fires before it; then up, late (one alert, one call), and up again on the next ping', async () => {
    const queued: string[][] = [];
    const c = checker({ onQueued: (ids) => queued.push(ids) });
    await c.startUp();
    const hb = await create();
    expect(hb.heartbeat.id).toMatch(/^hb_/);
    expect(hb.pingUrl).toMatch(/^\/heartbeat\/[0-9A-Za-z]{32}$/);
    expect(await stateOf(hb.heartbeat.id)).toBe('new');
    clock.advance(24 * 60 * MIN); // a day without a ping: still new, nothing raised
    await c.tick();
    expect(await stateOf(hb.heartbeat.id)).toBe('new');
    expect(await store.calls.list({ accountId })).toEqual([]);

    const pinged = await service().ping(token(hb.pingUrl));
    expect(pinged?.heartbeat.id).toBe(hb.heartbeat.id);
    expect(await stateOf(hb.heartbeat.id)).toBe('up');
    const pingedAt = clock();

    clock.advance(360_000 - 1); // interval 300 s + grace 60 s (default), not yet passed
    await c.tick();
    expect(await stateOf(hb.heartbeat.id)).toBe('up');
    clock.advance(1);
    await c.tick();
    expect(await stateOf(hb.heartbeat.id)).toBe('late');

    const alert = (await store.alerts.findOpen(accountId, `heartbeat:${hb.heartbeat.id}`))!;
    expect(alert).toMatchObject({ source: 'heartbeat', message: 'Heartbeat backup missed. Last signal 6 minutes ago.', state: 'open', credentialId: null });
    const calls = await store.calls.ofAlert(alert.id);
    expect(calls.map((c) => [c.phoneNumber, c.state, c.source])).toEqual([[A, 'queued', 'heartbeat']]);
    expect(queued).toEqual([[calls[0]!.id]]);
    const json = heartbeatJson((await store.heartbeats.find(accountId, hb.heartbeat.id))!);
    expect(json).toMatchObject({ state: 'late', alert_id: alert.id, last_ping_at: new Date(pingedAt).toISOString() });

    // Further looks while it stays late raise nothing more.
    clock.advance(10 * MIN);
    await c.tick();
    await c.tick();
    expect(await store.calls.ofAlert(alert.id)).toHaveLength(1);

    const back = await service().ping(token(hb.pingUrl));
    expect(back).toMatchObject({ resolvedAlertId: alert.id, cancelledCallIds: [calls[0]!.id] });
    expect(await stateOf(hb.heartbeat.id)).toBe('up');
    expect((await store.alerts.get(alert.id))!.state).toBe('resolved');
    expect((await store.calls.get(calls[0]!.id))!.state).toBe('cancelled');
    // The credit of the call never dialled came back.
    expect(await store.usage.usedIn(accountId, '2026-11')).toBe(0);

    // And it can go late again: a new alert.
    clock.advance(361_000);
    await c.tick();
    const again = (await store.alerts.findOpen(accountId, `heartbeat:${hb.heartbeat.id}`))!;
    expect(again.id).not.toBe(alert.id);
  });

  it("pingNamed (Opsgenie's ping by name): the account's heartbeat of that name, a late one's alert resolved; another account's name is null", async () => {
    const c = checker();
    await c.startUp();
    const hb = await create();
    expect(await service().pingNamed(accountId, 'backup')).toMatchObject({ heartbeat: { id: hb.heartbeat.id }, resolvedAlertId: null, cancelledCallIds: [] });
    clock.advance(360_000);
    await c.tick();
    const alert = (await store.alerts.findOpen(accountId, `heartbeat:${hb.heartbeat.id}`))!;
    const [call] = await store.calls.ofAlert(alert.id);
    const other = (await store.transaction((tx) => tx.accounts.create({ name: 'b', plan: 'starter', monthlyCredit: 100 }))).id;
    expect(await service().pingNamed(other, 'backup')).toBeNull();
    expect(await stateOf(hb.heartbeat.id)).toBe('late');
    expect(await service().pingNamed(accountId, 'backup')).toMatchObject({ resolvedAlertId: alert.id, cancelledCallIds: [call!.id] });
    expect(await stateOf(hb.heartbeat.id)).toBe('up');
    expect((await store.alerts.get(alert.id))!.state).toBe('resolved');
  });

  it('a miss after an acknowledged one calls again, however soon: each miss is a new incident', async () => {
    const c = checker();
    await c.startUp();
    const hb = await create({ interval_s: 60, grace_s: 0 });
    await service().ping(token(hb.pingUrl));
    clock.advance(MIN);
    await c.tick();
    const first = (await store.alerts.findOpen(accountId, `heartbeat:${hb.heartbeat.id}`))!;
    await store.transaction(async (tx) => acknowledgeAlert({ store: tx, timeZone: TZ }, first, '5321111111', clock()));
    await service().ping(token(hb.pingUrl)); // back up; the acknowledged alert stays acknowledged
    clock.advance(MIN);
    await c.tick();
    const second = (await store.alerts.findOpen(accountId, `heartbeat:${hb.heartbeat.id}`))!;
    expect(second.id).not.toBe(first.id);
    expect((await store.calls.ofAlert(second.id)).map((c) => c.state)).toEqual(['queued']);
  });

  it('the default text is in panel.language; --message replaces it', async () => {
    const c = checker({ language: 'tr' });
    await c.startUp();
    const tr = await create({ name: 'yedek', interval_s: 60, grace_s: 0 });
    const own = await create({ name: 'etl', interval_s: 60, grace_s: 0, message: 'ETL durdu' });
    await service().ping(token(tr.pingUrl));
    await service().ping(token(own.pingUrl));
    clock.advance(2 * MIN);
    await c.tick();
    expect((await store.alerts.findOpen(accountId, `heartbeat:${tr.heartbeat.id}`))!.message).toBe('Heartbeat yedek kaçırıldı. Son sinyal 2 dakika önce.');
    expect((await store.alerts.findOpen(accountId, `heartbeat:${own.heartbeat.id}`))!.message).toBe('ETL durdu');
  });

  it('under a policy: its escalation starts, the first step and --to numbers called', async () => {
    const p = await createPoliciesService({ store, clock }).create(accountId, { name: 'oncall', steps: [{ numbers: [B], wait_s: 60 }, { numbers: [A] }] });
    expect(p.ok).toBe(true);
    const c = checker();
    await c.startUp();
    const hb = await create({ to: [], policy: 'oncall', interval_s: 60, grace_s: 0 });
    await service().ping(token(hb.pingUrl));
    clock.advance(MIN);
    await c.tick();
    const alert = (await store.alerts.findOpen(accountId, `heartbeat:${hb.heartbeat.id}`))!;
    expect((await store.calls.ofAlert(alert.id)).map((c) => c.phoneNumber)).toEqual([B]);
    expect((await store.escalations.get(alert.id))!.state).toBe('running');
  });

  it('a paused heartbeat never fires; resume gives it a full interval + grace', async () => {
    const c = checker();
    await c.startUp();
    const hb = await create({ interval_s: 60, grace_s: 0 });
    await service().ping(token(hb.pingUrl));
    expect((await service().pause(accountId, 'backup')).ok).toBe(true);
    expect(await stateOf(hb.heartbeat.id)).toBe('paused');
    clock.advance(60 * MIN);
    await c.tick();
    expect(await stateOf(hb.heartbeat.id)).toBe('paused');
    expect(await store.alerts.findOpen(accountId, `heartbeat:${hb.heartbeat.id}`)).toBeNull();
    // A ping while paused is taken, and it stays paused.
    await service().ping(token(hb.pingUrl));
    expect(await stateOf(hb.heartbeat.id)).toBe('paused');

    clock.advance(60 * MIN);
    await service().resume(accountId, hb.heartbeat.id);
    expect(await stateOf(hb.heartbeat.id)).toBe('up');
    clock.advance(MIN - 1);
    await c.tick();
    expect(await stateOf(hb.heartbeat.id)).toBe('up');
    clock.advance(1);
    await c.tick();
    expect(await stateOf(hb.heartbeat.id)).toBe('late');
  });

  it('an unknown token, or one of another shape, is no heartbeat', async () => {
    await create();
    expect(await service().ping('x'.repeat(32))).toBeNull();
    expect(await service().ping('../../etc')).toBeNull();
  });

  it('delete resolves the open alert it raised and cancels its waiting calls', async () => {
    const c = checker();
    await c.startUp();
    const hb = await create({ interval_s: 60, grace_s: 0 });
    await service().ping(token(hb.pingUrl));
    clock.advance(MIN);
    await c.tick();
    const alert = (await store.alerts.findOpen(accountId, `heartbeat:${hb.heartbeat.id}`))!;
    expect((await service().remove(accountId, 'backup')).ok).toBe(true);
    expect((await store.alerts.get(alert.id))!.state).toBe('resolved');
    expect((await store.calls.ofAlert(alert.id)).map((c) => c.state)).toEqual(['cancelled']);
    expect(await store.heartbeats.find(accountId, hb.heartbeat.id)).toBeNull();
    expect(await service().ping(token(hb.pingUrl))).toBeNull();
  });

  it('refuses what cannot work: nobody to call, an interval under 1 s, a negative grace, an unknown policy, a taken name, a bad number', async () => {
    expect(await service().create(accountId, { name: 'x', interval_s: 60 })).toMatchObject({ ok: false, code: 'invalid_heartbeat' });
    expect(await service().create(accountId, { name: 'x', interval_s: 0, to: [A] })).toMatchObject({ ok: false, code: 'invalid_heartbeat' });
    // docs/on-call.md "Heartbeats": grace_s ≥ 0; 0 itself is allowed (the deadline is the
    // interval).
    expect(await service().create(accountId, { name: 'x', interval_s: 60, grace_s: -1, to: [A] })).toMatchObject({ ok: false, code: 'invalid_heartbeat' });
    expect(await store.heartbeats.list(accountId)).toEqual([]);
    expect(await service().create(accountId, { name: 'x', interval_s: 60, policy: 'nope' })).toMatchObject({ ok: false, code: 'unknown_policy' });
    expect(await service().create(accountId, { name: 'x', interval_s: 60, to: ['123'] })).toMatchObject({ ok: false, code: 'invalid_heartbeat' });
    await create();
    expect(await service().create(accountId, { name: 'backup', interval_s: 60, to: [A] })).toMatchObject({ ok: false, code: 'heartbeat_name_taken' });
  });
});

describe('heartbeats: one appliance fires, restarts give a full interval', () => {
  it('a heartbeat leased to a checker that hung is fired by another once the lease ran out, exactly once', async () => {
    const c = checker({ leaseMs: 30_000 });
    await c.startUp();
    const hb = await create({ interval_s: 60, grace_s: 0 });
    await service().ping(token(hb.pingUrl));
    clock.advance(MIN);
    // Another appliance claimed it and hung before firing.
    const taken = await store.transaction((tx) => tx.heartbeats.claimDue(clock(), 10, { owner: 'hung', ms: 30_000 }));
    expect(taken.map((h) => h.id)).toEqual([hb.heartbeat.id]);
    await c.tick();
    expect(await stateOf(hb.heartbeat.id)).toBe('up'); // leased: not ours yet
    clock.advance(30_001);
    await c.tick();
    expect(await stateOf(hb.heartbeat.id)).toBe('late');
    // The hung one wakes up: its guard fails (no longer up), nothing raised twice.
    expect(await store.transaction((tx) => tx.heartbeats.markLate(hb.heartbeat.id, 'hung', clock()))).toBeNull();
    const alert = (await store.alerts.findOpen(accountId, `heartbeat:${hb.heartbeat.id}`))!;
    expect(await store.calls.ofAlert(alert.id)).toHaveLength(1);
  });

  it('two checkers looking at once raise one alert', async () => {
    const [c1, c2] = [checker({ node: 'n1' }), checker({ node: 'n2' })];
    const hb = await create({ interval_s: 60, grace_s: 0 });
    await service().ping(token(hb.pingUrl));
    clock.advance(MIN);
    await Promise.all([c1.tick(), c2.tick(), c1.tick(), c2.tick()]);
    const alert = (await store.alerts.findOpen(accountId, `heartbeat:${hb.heartbeat.id}`))!;
    expect(await store.calls.ofAlert(alert.id)).toHaveLength(1);
  });

  it('after the appliance was down, each up heartbeat gets a full interval + grace from the start', async () => {
    const before = checker();
    await before.startUp();
    const hb = await create({ interval_s: 300, grace_s: 60 });
    const fresh = await create({ name: 'fresh' });
    await service().ping(token(hb.pingUrl));
    clock.advance(2 * MIN);
    await before.tick();
    await before.end();
    clock.advance(10 * MIN); // down for 10 minutes: the deadline passed meanwhile

    const after = checker();
    expect(await after.startUp()).toBe(1); // the up one; the new one has no deadline
    await after.tick();
    expect(await stateOf(hb.heartbeat.id)).toBe('up');
    clock.advance(6 * MIN - 1);
    await after.tick();
    expect(await stateOf(hb.heartbeat.id)).toBe('up');
    clock.advance(1);
    await after.tick();
    expect(await stateOf(hb.heartbeat.id)).toBe('late');
    expect(await stateOf(fresh.heartbeat.id)).toBe('new');
  });

  it('a restart in the middle of a deadline still gives the full interval (the pings it missed were not the pinger\'s fault)', async () => {
    const before = checker();
    await before.startUp();
    const hb = await create({ interval_s: 300, grace_s: 0 });
    await service().ping(token(hb.pingUrl));
    clock.advance(4 * MIN);
    await before.tick();
    await before.end();
    clock.advance(2_000); // a quick restart of the same appliance (same node)
    const after = checker();
    expect(await after.startUp()).toBe(1);
    clock.advance(MIN + 1000); // past the old deadline, not past start + interval
    await after.tick();
    expect(await stateOf(hb.heartbeat.id)).toBe('up');
    clock.advance(4 * MIN);
    await after.tick();
    expect(await stateOf(hb.heartbeat.id)).toBe('late');
  });

  it('an appliance starting while another kept checking (HA) changes no deadline', async () => {
    const other = checker({ node: 'host-b:/var/lib/voice-alert' });
    await other.startUp();
    const hb = await create({ interval_s: 60, grace_s: 0 });
    await service().ping(token(hb.pingUrl));
    clock.advance(MIN);
    await other.tick(); // fires at once: the other appliance was up all along
    expect(await stateOf(hb.heartbeat.id)).toBe('late');
    await service().ping(token(hb.pingUrl));
    clock.advance(MIN - 5000);
    await other.tick();
    const starting = checker({ node: 'host-a:/var/lib/voice-alert' });
    expect(await starting.startUp()).toBe(0);
    clock.advance(5000);
    await starting.tick();
    expect(await stateOf(hb.heartbeat.id)).toBe('late');
  });
});
