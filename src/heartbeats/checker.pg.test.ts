import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testStoreUrl } from '../../test/helpers/postgres';
import { systemClock } from '../clock';
import { silentLogger } from '../log';
import { createStore, type Store } from '../store';
import { createHeartbeatChecker, createHeartbeatService, type HeartbeatChecker } from '.';

// docs/on-call.md "Heartbeats" under high availability: two appliances on one PostgreSQL, each with
// its own checker, on the database's clock (real time here). Each late heartbeat raises one alert.
const TZ = 'Europe/Istanbul';
const stores: Store[] = [];
const checkers: HeartbeatChecker[] = [];
afterEach(async () => {
  for (const c of checkers.splice(0)) await c.end();
  for (const s of stores.splice(0)) await s.close();
});

async function twoAppliances() {
  const url = testStoreUrl()!;
  const dir = mkdtempSync(join(tmpdir(), 'va-hb-pg-'));
  const open = () => createStore({ url, path: join(dir, 'voice-alert.db'), busyTimeoutMs: 1000, clock: systemClock });
  const a = await open();
  const b = await open();
  stores.push(a, b);
  const checker = (store: Store, node: string) => {
    const c = createHeartbeatChecker({ store, clock: systemClock, log: silentLogger(), node, leaseMs: 30_000, language: 'en', timeZone: TZ });
    checkers.push(c);
    return c;
  };
  return { a, b, ca: checker(a, 'host-a:/var/lib/voice-alert'), cb: checker(b, 'host-b:/var/lib/voice-alert') };
}

describe('heartbeats on one PostgreSQL, two appliances', () => {
  it('checkers of both appliances looking at once raise exactly one alert and one call per late heartbeat', async () => {
    const { a, b, ca, cb } = await twoAppliances();
    await ca.startUp();
    await cb.startUp();
    const accountId = (await a.transaction((tx) => tx.accounts.create({ name: 'a', plan: 'starter', monthlyCredit: 100 }))).id;
    const service = createHeartbeatService({ store: a, clock: systemClock, timeZone: TZ });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await service.create(accountId, { name: `hb${i}`, interval_s: 1, grace_s: 0, to: ['5321111111'] });
      if (!r.ok) throw new Error(JSON.stringify(r));
      ids.push(r.heartbeat.id);
      expect(await service.ping(r.pingUrl.replace('/heartbeat/', ''))).not.toBeNull();
    }
    await Bun.sleep(1100);
    await Promise.all([ca.tick(), cb.tick(), ca.tick(), cb.tick()]);
    await Promise.all([ca.tick(), cb.tick()]);
    for (const id of ids) {
      const h = (await b.heartbeats.find(accountId, id))!;
      expect(h.state).toBe('late');
      const alert = (await b.alerts.findOpen(accountId, `heartbeat:${id}`))!;
      expect(h.alertId).toBe(alert.id);
      expect(await b.calls.ofAlert(alert.id)).toHaveLength(1);
    }
    expect((await b.calls.list({ accountId })).length).toBe(ids.length);
  });

  it('a ping racing the deadline either prevents the alert or resolves it: never an open alert on an up heartbeat', async () => {
    const { a, b, ca, cb } = await twoAppliances();
    await ca.startUp();
    await cb.startUp();
    const accountId = (await a.transaction((tx) => tx.accounts.create({ name: 'a', plan: 'starter', monthlyCredit: 100 }))).id;
    const service = createHeartbeatService({ store: b, clock: systemClock, timeZone: TZ });
    const r = await service.create(accountId, { name: 'race', interval_s: 1, grace_s: 0, to: ['5321111111'] });
    if (!r.ok) throw new Error(JSON.stringify(r));
    const token = r.pingUrl.replace('/heartbeat/', '');
    await service.ping(token);
    await Bun.sleep(1000);
    await Promise.all([ca.tick(), service.ping(token), cb.tick()]);
    const h = (await a.heartbeats.find(accountId, r.heartbeat.id))!;
    const open = await a.alerts.findOpen(accountId, `heartbeat:${r.heartbeat.id}`);
    // Whichever came first, the ping is the last word: up, and no alert left open.
    expect(h.state).toBe('up');
    expect(open).toBeNull();
  });
});
