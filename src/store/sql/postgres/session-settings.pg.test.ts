import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { testStoreUrl } from '../../../../test/helpers/postgres';
import { DatabaseUnavailableError } from '../unavailable';
import type { SqlDatabase } from '../database';
import { openPostgres } from './database';

// docs/high-availability.md: every connection of the pool has the server end its statements,
// lock waits and forgotten transactions by store.timeout_ms, and keeps its socket alive so
// that a vanished appliance lets go of what it held. Seen from the server's side.

const TIMEOUT_MS = 1500;
let db: SqlDatabase | null = null;
afterEach(async () => {
  await db?.close();
  db = null;
});

interface Settings {
  pid: number;
  statement_timeout: string;
  lock_timeout: string;
  idle: string;
  keepalive_idle: string;
  keepalive_interval: string;
  keepalive_count: string;
  application_name: string;
  port: number;
}

const SETTINGS = `SELECT pg_backend_pid() AS pid,
  current_setting('statement_timeout') AS statement_timeout,
  current_setting('lock_timeout') AS lock_timeout,
  current_setting('idle_in_transaction_session_timeout') AS idle,
  current_setting('tcp_keepalives_idle') AS keepalive_idle,
  current_setting('tcp_keepalives_interval') AS keepalive_interval,
  current_setting('tcp_keepalives_count') AS keepalive_count,
  current_setting('application_name') AS application_name,
  inet_server_port() AS port,
  pg_sleep(0.3) IS NULL AS slept`;

describe('the PostgreSQL pool: each connection set as docs/high-availability.md says', () => {
  it('every pooled connection (three at once, and the reads) has statement_timeout, lock_timeout, idle_in_transaction_session_timeout and TCP keepalive', async () => {
    const url = testStoreUrl();
    if (!url) throw new Error('a .pg.test runs on the postgres project only');
    db = await openPostgres({ url, timeoutMs: TIMEOUT_MS, poolSize: 3 });
    const open = db;
    // Three transactions at once, each holding its connection for 0.3 s: three connections.
    const seen = (await Promise.all([1, 2, 3].map(() => open.transaction((c) => c.query(SETTINGS).get())))) as Settings[];
    const read = (await open.reader.query(SETTINGS).get()) as Settings;
    expect(new Set(seen.map((s) => s.pid)).size).toBe(3);
    for (const s of [...seen, read]) {
      expect(s).toMatchObject({
        statement_timeout: '1500ms',
        lock_timeout: '1500ms',
        // Twice the timeout, at least 10 s: a unit between two statements is never cut short.
        idle: '10s',
        keepalive_idle: '5',
        keepalive_interval: '2',
        keepalive_count: '3',
        application_name: 'voice-alert',
      });
    }
    // The server's sockets of these connections run a keepalive timer once idle (ss shows it;
    // a socket whose answer is still unacknowledged shows its retransmit timer meanwhile).
    const port = Number(seen[0]!.port);
    const keepalives = () => {
      const ss = spawnSync('ss', ['-tnoH', 'state', 'established', `( sport = :${port} )`], { encoding: 'utf8' });
      if (ss.status !== 0) throw new Error(ss.stderr);
      return ss.stdout.split('\n').filter((l) => /timer:\(keepalive,/.test(l)).length;
    };
    await expect.poll(keepalives, { timeout: 3000, interval: 100 }).toBeGreaterThanOrEqual(3);
  });

  it('a statement longer than store.timeout_ms: DatabaseUnavailableError (503) soon after it, its backend no longer running it, and the pool works on', async () => {
    const url = testStoreUrl();
    if (!url) throw new Error('a .pg.test runs on the postgres project only');
    db = await openPostgres({ url, timeoutMs: TIMEOUT_MS, poolSize: 2 });
    const open = db;
    const t0 = performance.now();
    const error = await open.transaction((c) => c.query('SELECT pg_sleep(5)').get()).catch((e: unknown) => e);
    const ms = performance.now() - t0;
    expect(error).toBeInstanceOf(DatabaseUnavailableError);
    expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(ms).toBeLessThan(TIMEOUT_MS + 1000);
    // Its backend is not still sleeping out the 5 s, holding a connection and whatever it
    // locked (the connection given up is closed; statement_timeout ends it too, for an
    // appliance too hung to close anything, whose settings the test above checks).
    const sleeping = async () =>
      Number(((await open.reader.query("SELECT count(*) AS n FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(5)' AND state = 'active'").get()) as { n: number }).n);
    await expect.poll(sleeping, { timeout: 500, interval: 50 }).toBe(0);
    expect(await open.transaction((c) => c.query('SELECT 1 AS one').get())).toEqual({ one: 1 });
  });
});
