import { describe, expect, it } from 'vitest';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { verifySignature } from '../signing';
import { silentLogger } from '../log';
import { callbackHeaders, createCallbackSender, emitAlertEvent, GIVE_UP_AFTER_MS, nextAttemptAt, type PostCallback } from '.';

describe('retry schedule', () => {
  it('10 s, 1 min, 5 min, 30 min, then hourly, never later than 24 h after the event', () => {
    const t0 = 1_000_000;
    expect([1, 2, 3, 4, 5, 6].map((n) => nextAttemptAt(t0, n, t0)! - t0)).toEqual([10_000, 60_000, 300_000, 1_800_000, 3_600_000, 3_600_000]);
    expect(nextAttemptAt(t0, 9, t0 + GIVE_UP_AFTER_MS - 3_600_000)).toBe(t0 + GIVE_UP_AFTER_MS);
    expect(nextAttemptAt(t0, 9, t0 + GIVE_UP_AFTER_MS - 3_599_999)).toBeNull();
  });
});

describe('signing', () => {
  it('signs "<ts>.<body>" with the callback secret so the inbound verifier accepts it, and nothing else', () => {
    const body = JSON.stringify({ id: 'evt_1', type: 'alert.resolved' });
    const now = Date.parse('2026-11-15T12:00:00Z');
    const h = callbackHeaders('vcs_secret', body, now);
    expect(h).toMatchObject({ 'Content-Type': 'application/json', 'X-Timestamp': String(now / 1000) });
    const enc = new TextEncoder();
    const given = { timestamp: h['X-Timestamp']!, signature: h['X-Signature']! };
    expect(given.signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifySignature('vcs_secret', given, enc.encode(body), now)).toBe(true);
    expect(verifySignature('vcs_other', given, enc.encode(body), now)).toBe(false);
    expect(verifySignature('vcs_secret', given, enc.encode(body + ' '), now)).toBe(false);
  });
});

/** A store with one account that has a callback, and a sender whose POSTs the test answers. */
async function rig(answer: (url: string, body: string, signal: AbortSignal) => Promise<number> | number, options: { timeoutMs?: number; concurrency?: number; leaseMs?: number } = {}) {
  const clock = manualClock();
  const store = await tempStore(clock);
  const account = await store.transaction((tx) => tx.accounts.create({ name: 'a', plan: 'starter' }));
  const sent: { type: string; alert: string; body: string; headers: Record<string, string> }[] = [];
  const post: PostCallback = async (url, { headers, body, signal }) => {
    const e = JSON.parse(body);
    sent.push({ type: e.type, alert: e.alert.id, body, headers });
    return answer(url, body, signal);
  };
  const sender = createCallbackSender({ store, clock, log: silentLogger(), post, pollMs: 3_600_000, ...options });
  const target = (accountId = account.id) => store.transaction((tx) => tx.outbox.setTarget(accountId, { url: 'http://127.0.0.1:9/cb', secret: 'vcs_s' }));
  /** An alert and `types` events for it, written one transaction each. */
  const alert = async (types: ('alert.escalated' | 'alert.resolved')[], accountId = account.id) => {
    const id = await store.transaction((tx) => tx.alerts.create({ accountId, credentialId: null, key: null, source: 'api', message: 'm' }, clock()));
    for (const type of types) await store.transaction(async (tx) => emitAlertEvent(tx, type, (await tx.alerts.get(id))!, clock()));
    return id;
  };
  const round = async () => {
    await sender.pump();
    await sender.idle();
  };
  const events = async () => (await store.outbox.recent(account.id, 100)).reverse();
  return { clock, store, account, sender, sent, target, alert, round, events };
}

describe('callback sender', () => {
  it("an alert's next event waits until the previous one is delivered; another alert's events go meanwhile", async () => {
    let failing = true;
    const r = await rig((_u, body) => (failing && JSON.parse(body).type === 'alert.escalated' ? 500 : 204));
    await r.target();
    const a = await r.alert(['alert.escalated', 'alert.resolved']);
    const b = await r.alert(['alert.escalated', 'alert.resolved']);
    await r.round();
    // Only each alert's first event was tried; both answered 500. (The two alerts' requests
    // go at once: which of them leaves first is nobody's promise.)
    expect(r.sent.map((s) => [s.alert, s.type]).sort()).toEqual(
      [
        [a, 'alert.escalated'],
        [b, 'alert.escalated'],
      ].sort(),
    );
    expect((await r.events()).map((e) => [e.state, e.attempts, e.lastStatus, e.lastError])).toEqual([
      ['pending', 1, 500, 'HTTP 500'],
      ['pending', 0, null, null],
      ['pending', 1, 500, 'HTTP 500'],
      ['pending', 0, null, null],
    ]);
    r.clock.advance(9_999);
    await r.round();
    expect(r.sent).toHaveLength(2); // not before its 10 s
    failing = false;
    r.clock.advance(1);
    await r.round();
    expect((await r.events()).map((e) => e.state)).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
    for (const alertId of [a, b]) expect(r.sent.filter((s) => s.alert === alertId).map((s) => s.type)).toEqual(['alert.escalated', 'alert.escalated', 'alert.resolved']);
    // The same event id and bytes on the retry.
    const firstOfA = r.sent.filter((s) => s.alert === a);
    expect(firstOfA[1]!.body).toBe(firstOfA[0]!.body);
    await r.store.close();
  });

  it('gives up after 24 h of failures (28 attempts: 4 + hourly from 36 min 10 s to 23 h 36 min 10 s), records it, and then sends the next event of that alert', async () => {
    const r = await rig(() => 503);
    await r.target();
    const a = await r.alert(['alert.escalated', 'alert.resolved']);
    const first = (await r.events())[0]!;
    for (;;) {
      await r.round();
      const e = (await r.store.outbox.get(first.eventId))!;
      if (e.state !== 'pending') break;
      r.clock.set(e.nextAttemptAt);
    }
    const given = (await r.store.outbox.get(first.eventId))!;
    expect(given).toMatchObject({ state: 'given_up', attempts: 28, lastStatus: 503 });
    expect(given.finishedAt! - given.createdAt).toBeLessThanOrEqual(GIVE_UP_AFTER_MS);
    expect(r.sent.filter((s) => s.type === 'alert.escalated')).toHaveLength(28);
    // The alert's next event was held back all along, and goes now.
    expect(r.sent.at(-1)).toMatchObject({ alert: a, type: 'alert.resolved' });
    await r.store.close();
  });

  const hang: Parameters<typeof rig>[0] = (url, _b, signal) =>
    url.includes('slow') ? new Promise<number>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))) : 200;

  it('a request not answered in time counts as a failure and is retried on the schedule', async () => {
    const r = await rig(hang, { timeoutMs: 50 });
    await r.store.transaction((tx) => tx.outbox.setTarget(r.account.id, { url: 'http://127.0.0.1:9/slow', secret: 's' }));
    await r.alert(['alert.resolved']);
    await r.round();
    expect((await r.events())[0]).toMatchObject({ state: 'pending', attempts: 1, lastStatus: null, lastError: 'no answer in 0.05 s', nextAttemptAt: r.clock() + 10_000 });
    await r.store.close();
  });

  it("a hanging target holds at most two slots and its backlog does not hold back another account's events", async () => {
    const r = await rig(hang, { timeoutMs: 60_000, concurrency: 4 });
    const other = await r.store.transaction((tx) => tx.accounts.create({ name: 'b', plan: 'starter' }));
    await r.store.transaction((tx) => tx.outbox.setTarget(r.account.id, { url: 'http://127.0.0.1:9/slow', secret: 's' }));
    await r.target(other.id);
    // More than the sender reads at once (4 × concurrency), all due before the other's.
    for (let i = 0; i < 20; i++) await r.alert(['alert.resolved']);
    const fast = await r.alert(['alert.resolved'], other.id);
    void r.sender.pump();
    await expect.poll(async () => (await r.store.outbox.recent(other.id, 1))[0]?.state, { timeout: 2_000, interval: 5 }).toBe('delivered');
    expect(r.sent.filter((s) => s.alert !== fast)).toHaveLength(2);
    await r.sender.end();
    expect((await r.events()).every((e) => e.state === 'pending' && e.attempts === 0)).toBe(true);
    await r.store.close();
  });

  it('stopping mid-request records nothing: the event stays pending and is sent again by the next sender', async () => {
    const r = await rig((_u, _b, signal) => new Promise<number>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))));
    await r.target();
    await r.alert(['alert.resolved']);
    void r.sender.pump();
    await r.sender.end();
    expect((await r.events())[0]).toMatchObject({ state: 'pending', attempts: 0 });
    const next = createCallbackSender({ store: r.store, clock: r.clock, log: silentLogger(), post: async () => 200, pollMs: 3_600_000 });
    await next.pump();
    await next.idle();
    expect((await r.events())[0]).toMatchObject({ state: 'delivered', attempts: 1, lastStatus: 200 });
    await r.store.close();
  });

  it("an event being sent is leased: another appliance's sender leaves it alone until the lease ran out, then sends it, and the first one's late result is not recorded", async () => {
    let answer!: (status: number) => void;
    const r = await rig(() => new Promise<number>((resolve) => (answer = resolve)), { leaseMs: 200 });
    await r.target();
    await r.alert(['alert.resolved']);
    void r.sender.pump();
    await expect.poll(() => r.sent.length, { timeout: 2_000, interval: 5 }).toBe(1); // hangs in its POST
    const other = createCallbackSender({ store: r.store, clock: r.clock, log: silentLogger(), post: async () => 200, pollMs: 3_600_000, leaseMs: 200 });
    await other.pump();
    await other.idle();
    expect((await r.events())[0]).toMatchObject({ state: 'pending', attempts: 0 });
    // Leases run by the caller's clock on SQLite and by the database's on PostgreSQL: both move.
    r.clock.advance(201);
    await new Promise((resolve) => setTimeout(resolve, 250));
    await other.pump();
    await other.idle();
    expect((await r.events())[0]).toMatchObject({ state: 'delivered', attempts: 1, lastStatus: 200 });
    answer(500);
    await r.sender.idle();
    expect((await r.events())[0]).toMatchObject({ state: 'delivered', attempts: 1, lastStatus: 200 });
    await r.store.close();
  });

  it('events of an account whose callback was cleared are given up, not sent', async () => {
    const r = await rig(() => 200);
    await r.target();
    await r.alert(['alert.resolved']);
    await r.store.transaction((tx) => tx.outbox.clearTarget(r.account.id));
    await r.round();
    expect(r.sent).toEqual([]);
    expect((await r.events())[0]).toMatchObject({ state: 'given_up', lastError: 'the account has no callback_url any more' });
    await r.store.close();
  });

  it('keeps finished events for the panel a week, then prunes them; pending ones are never pruned', async () => {
    const r = await rig((_u, body) => (JSON.parse(body).alert.id === failing ? 500 : 200));
    let failing = '';
    await r.target();
    await r.alert(['alert.resolved']);
    failing = await r.alert(['alert.resolved']);
    await r.round();
    expect((await r.events()).map((e) => e.state)).toEqual(['delivered', 'pending']);
    r.clock.advance(7 * 24 * 3_600_000 - 1);
    expect(await r.store.transaction((tx) => tx.outbox.prune(r.clock() - 7 * 24 * 3_600_000))).toBe(0);
    r.clock.advance(2);
    expect(await r.store.transaction((tx) => tx.outbox.prune(r.clock() - 7 * 24 * 3_600_000))).toBe(1);
    expect((await r.events()).map((e) => e.state)).toEqual(['pending']);
    await r.store.close();
  });
});
