import { Database } from 'bun:sqlite';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../test/helpers/memory-store';
import { noProbe, type TrunkStatus } from '../calls';
import { configSchema } from '../config';
import { silentLogger } from '../log';
import { createStore, DatabaseUnavailableError, type Store } from '../store';
import { createHttpApp } from './app';
import type { HttpDeps } from './deps';
import { createRateLimiter } from './rate-limit';
import { createServices } from '../services';

let store: Store | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

const MIB = 1024 * 1024;

async function app(
  o: { freeBytes?: number; trunk?: TrunkStatus['state']; reachable?: boolean | null; wrap?: (s: Store) => Store } = {},
) {
  const clock = manualClock('2026-11-15T12:00:00Z');
  const path = join(mkdtempSync(join(tmpdir(), 'va-health-')), 'voice-alert.db');
  store = await createStore({ path, busyTimeoutMs: 200, clock });
  const s = o.wrap ? o.wrap(store) : store;
  const config = configSchema.parse({ store: { path, min_free_mb: 100 } });
  const services = createServices({ store: s, clock, config });
  const asked: string[] = [];
  const deps: HttpDeps = {
    store: s,
    clock,
    log: silentLogger(),
    config,
    intake: { store: s, clock, timeZone: 'Europe/Istanbul', alerts: services.alerts },
    services,
    rateLimiter: createRateLimiter(0, clock),
    trunkStatus: o.trunk ? () => ({ state: o.trunk!, registered: null, lastError: null, ...noProbe(), reachable: o.reachable ?? null }) : undefined,
    // The injected free-space probe: how a test simulates a full disk (statfs otherwise).
    freeDiskBytes: (dir) => (asked.push(dir), o.freeBytes ?? 10_000 * MIB),
  };
  return { http: createHttpApp(deps), clock, asked, path, store: s };
}

async function get(a: Awaited<ReturnType<typeof app>>) {
  const r = await a.http.handle(new Request('http://localhost/healthz'));
  return { status: r.status, body: (await r.json()) as any, requestId: r.headers.get('x-request-id') };
}

describe('GET /healthz', () => {
  it('200 ok with every check: database, disk, trunk, queue depth and the oldest queued call age', async () => {
    const a = await app({ trunk: 'up' });
    const acc = await a.store.transaction((tx) => tx.accounts.create({ name: 't', plan: 'starter' }));
    await a.store.transaction((tx) =>
      tx.calls.enqueue([{ accountId: acc.id, credentialId: null, source: 'api', phoneNumber: '5321234567', message: 'm' }], a.clock()),
    );
    a.clock.advance(42_000);
    const r = await get(a);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      status: 'success',
      message: 'ok',
      checks: { database: 'up', disk: 'up', trunk: 'up', trunks: { default: 'none' }, sms: { via: 'modem', state: 'none', modems: {} }, queue: 1, oldest_queued_s: 42 },
    });
    expect(a.asked).toEqual([join(a.path, '..')]); // the database's own file system
    expect(r.requestId).toBeTruthy();
  });

  it('503 naming the disk when free space is under store.min_free_mb (a full disk, simulated by the probe)', async () => {
    const r = await get(await app({ freeBytes: 99 * MIB }));
    expect(r.status).toBe(503);
    expect(r.body).toEqual({
      status: 'error',
      message: 'Disk space low',
      code: 'disk_space_low',
      checks: { database: 'up', disk: 'down', trunk: 'none', trunks: {}, sms: { via: 'modem', state: 'none', modems: {} }, queue: 0, oldest_queued_s: null },
    });
  });

  it('503 naming the database when it cannot take a write, although it still answers reads', async () => {
    const a = await app();
    expect((await get(a)).status).toBe(200);
    // Another process holds the write lock past busy_timeout: reads go on, writes fail.
    const other = new Database(a.path);
    other.run('BEGIN IMMEDIATE');
    try {
      expect(await a.store.ping()).toBe(true);
      const r = await get(a);
      expect(r.status).toBe(503);
      expect(r.body).toMatchObject({ status: 'error', message: 'Database unavailable', code: 'database_unavailable' });
      expect(r.body.checks).toMatchObject({ database: 'down', disk: 'up' });
    } finally {
      other.run('ROLLBACK');
      other.close();
    }
    expect((await get(a)).status).toBe(200);
  });

  it('503 with checks.database "down" when the database does not answer (ping false); the probe write is not tried', async () => {
    let probed = false;
    const a = await app({
      wrap: (s) => ({
        ...s,
        ping: async () => false,
        transaction: (work) => ((probed = true), s.transaction(work)),
      }),
    });
    const r = await get(a);
    expect(r.status).toBe(503);
    expect(r.body).toEqual({
      status: 'error',
      message: 'Database unavailable',
      code: 'database_unavailable',
      checks: { database: 'down', disk: 'up', trunk: 'none', trunks: {}, sms: { via: 'modem', state: 'none', modems: {} }, queue: 0, oldest_queued_s: null },
    });
    expect(probed).toBe(false);
  });

  it('503 with checks.database "down" when the probe write is refused as DatabaseUnavailableError (store.timeout_ms passed)', async () => {
    const a = await app({ wrap: (s) => ({ ...s, transaction: () => Promise.reject(new DatabaseUnavailableError('no answer in time')) }) });
    const r = await get(a);
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ status: 'error', message: 'Database unavailable', code: 'database_unavailable' });
    expect(r.body.checks).toMatchObject({ database: 'down', disk: 'up' });
  });

  it('a database that does not answer at all (frozen) holds neither /healthz nor /metrics: 503 down and 200 within 100 ms', async () => {
    const never = () => new Promise<never>(() => undefined);
    const a = await app({
      wrap: (s) => ({
        ...s,
        ping: never,
        transaction: never,
        health: { ...s.health, queue: never },
        opsCounts: { ...s.opsCounts, callsByState: never, alertsByState: never, outboxBacklog: never },
      }),
    });
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const r = await get(a);
      expect(performance.now() - t0).toBeLessThan(100);
      expect(r.status).toBe(503);
      expect(r.body.checks).toMatchObject({ database: 'down', queue: null });
      const t1 = performance.now();
      const m = await a.http.handle(new Request('http://localhost/metrics'));
      const text = await m.text();
      expect(performance.now() - t1).toBeLessThan(100);
      expect(m.status).toBe(200);
      expect(text).toMatch(/^voice_alert_database_up 0$/m);
    }
  });

  it('a probe slower than its wait while other units of work commit (a busy appliance) is up; with nothing committing it is down', async () => {
    let committing = true;
    let batches = 0;
    const slow = () => new Promise<never>(() => undefined);
    const a = await app({
      wrap: (s) => ({
        ...s,
        transaction: slow,
        health: { ...s.health, queue: slow },
        // Other requests' units of work commit while the probe waits (or, frozen, do not).
        stats: () => ({ ...s.stats(), batches: committing ? ++batches : batches }),
      }),
    });
    const busy = await get(a);
    expect(busy.status).toBe(200);
    expect(busy.body.checks).toMatchObject({ database: 'up', queue: null, oldest_queued_s: null });
    committing = false;
    const frozen = await get(a);
    expect(frozen.status).toBe(503);
    expect(frozen.body).toMatchObject({ code: 'database_unavailable', checks: { database: 'down' } });
  });

  it('a trunk that is down does not fail /healthz; none when no trunk is configured', async () => {
    const down = await get(await app({ trunk: 'starting' }));
    expect(down.status).toBe(200);
    expect(down.body.checks.trunk).toBe('down');
    await store!.close();
    const none = await get(await app({ trunk: 'not_configured' }));
    expect(none.body.checks.trunk).toBe('none');
  });

  it('checks.trunk follows the OPTIONS probe: a started trunk the PBX does not answer is down (still 200)', async () => {
    const unanswered = await get(await app({ trunk: 'up', reachable: false }));
    expect(unanswered.status).toBe(200);
    expect(unanswered.body.checks.trunk).toBe('down');
    await store!.close();
    const answered = await get(await app({ trunk: 'up', reachable: true }));
    expect(answered.body.checks.trunk).toBe('up');
  });
});
