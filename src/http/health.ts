import { Elysia } from 'elysia';
import { checkTrunkStates, type TrunkState } from '../calls';
import { dirname } from 'node:path';
import { describeError } from '../log';
import type { HttpDeps } from './deps';
import { statfsFreeBytes } from './disk-space';
import { errorBody } from '../errors';
import { jsonResponse } from './respond';

export type CheckState = 'up' | 'down' | 'none';

export interface HealthChecks {
  database: 'up' | 'down';
  disk: 'up' | 'down';
  /** A trunk that is down does not fail /healthz: a restart cannot fix a PBX (docs/http-api.md "GET /healthz"). */
  trunk: CheckState;
  /** Each trunk's state by name (docs/telephony.md "SIP trunks: several, in order"); {} with no trunk. */
  trunks: Record<string, TrunkState>;
  /** docs/second-path.md "Operations": the text path and each modem; a modem that is down does not fail /healthz (a call may still get out). */
  sms: SmsCheck;
  /** Calls waiting to be dialled, and how long the oldest has waited (null: none, or unknown). */
  queue: number | null;
  oldest_queued_s: number | null;
}

export interface SmsCheck {
  via: 'modem' | 'sip';
  /** up: a modem is ready and registered; down: none is; none: no modem configured (via sip: see `trunk`). */
  state: CheckState;
  modems: Record<string, { state: string; sim: string | null; registered: boolean | null; registration: string | null; signal_dbm: number | null; error: string | null }>;
}

const MIB = 1024 * 1024;

/** checks.sms from the second path's status (no second path in this process: nothing configured). */
export function smsCheck(status: ReturnType<NonNullable<HttpDeps['smsStatus']>> | undefined): SmsCheck {
  if (!status) return { via: 'modem', state: 'none', modems: {} };
  const modems: SmsCheck['modems'] = {};
  for (const m of status.modems) {
    modems[m.name] = {
      state: m.state,
      sim: m.sim,
      registered: m.registration ? m.registration.registered : null,
      registration: m.registration?.text ?? null,
      signal_dbm: m.signal?.dbm ?? null,
      error: m.lastError,
    };
  }
  return { via: status.via, state: status.state, modems };
}

/**
 * How long /healthz waits for the database before it answers `down`: a database that is
 * slow, frozen or restarting must not hold the answer (docs/high-availability.md: it
 * answers within 100 ms). A probe still running then goes on, and the next request joins it.
 */
export const HEALTH_DATABASE_WAIT_MS = 80;

/**
 * GET /healthz (docs/http-api.md "GET /healthz"): 200 `ok` while the database takes a write and
 * its file system has at least store.min_free_mb free; else 503 naming the failed check
 * (the database first), `checks.database` then `down`. The body always carries `checks`.
 * For systemd and load balancers: a full disk makes every alert fail, so it must fail here
 * too (issue 10 §1). The database's checks (does it answer, does it take a write, how deep
 * is the queue) are one probe, waited for at most HEALTH_DATABASE_WAIT_MS.
 */
export function healthRoutes(deps: HttpDeps) {
  const freeBytes = deps.freeDiskBytes ?? statfsFreeBytes;
  const dataDir = dirname(deps.config.store.path);
  let probing: Promise<DatabaseProbe> | null = null;
  return new Elysia({ name: 'health' }).get('/healthz', async () => {
    const { clock } = deps;
    probing ??= probeDatabase(deps).finally(() => (probing = null));
    const committed = deps.store.stats().batches;
    const probe = await withinWait(probing);
    // The probe still waits, but other units of work committed meanwhile: the database takes
    // writes, only slower than the wait (a busy SQLite group commit and its fsync under load).
    // A frozen or lost database commits nothing and stays `down`.
    const database = probe === NO_ANSWER && deps.store.stats().batches > committed ? 'up' : probe.database;
    const q = probe.queue;
    let disk: HealthChecks['disk'] = 'down';
    try {
      disk = freeBytes(dataDir) >= deps.config.store.min_free_mb * MIB ? 'up' : 'down';
    } catch (e) {
      deps.log.warn({ error: describeError(e) }, 'health: free space unknown');
    }
    const queue = q?.queued ?? null;
    const oldest = q && q.oldestCreatedAt !== null ? Math.max(0, Math.floor((clock() - q.oldestCreatedAt) / 1000)) : null;
    const { trunk, trunks } = checkTrunkStates(deps.trunkStatus?.());
    const checks: HealthChecks = { database, disk, trunk, trunks, sms: smsCheck(deps.smsStatus?.()), queue, oldest_queued_s: oldest };
    if (database === 'down') return jsonResponse(503, { ...errorBody('database_unavailable'), checks });
    if (disk === 'down') return jsonResponse(503, { ...errorBody('disk_space_low'), checks });
    return jsonResponse(200, { status: 'success', message: 'ok', checks });
  });
}

interface DatabaseProbe {
  database: HealthChecks['database'];
  queue: { queued: number; oldestCreatedAt: number | null } | null;
}

const NO_ANSWER: DatabaseProbe = { database: 'down', queue: null };

function withinWait(probe: Promise<DatabaseProbe>): Promise<DatabaseProbe> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<DatabaseProbe>((resolve) => (timer = setTimeout(() => resolve(NO_ANSWER), HEALTH_DATABASE_WAIT_MS)));
  return Promise.race([probe, late]).finally(() => clearTimeout(timer));
}

/**
 * up: the database answers and took the probe write. The write and the queue's depth run
 * at the same time; a ping that fails skips the write.
 */
async function probeDatabase(deps: HttpDeps): Promise<DatabaseProbe> {
  const [database, queue] = await Promise.all([databaseState(deps), queueState(deps)]);
  return { database, queue };
}

/** up: the database answers and took the probe write. */
async function databaseState(deps: HttpDeps): Promise<HealthChecks['database']> {
  const { store, clock } = deps;
  try {
    if (!(await store.ping())) return 'down';
    // A transaction like every write, so a 200 means a COMMIT (and its fsync) went through.
    await store.transaction((tx) => tx.health.probeWrite(clock()));
    return 'up';
  } catch (e) {
    deps.log.warn({ error: describeError(e) }, 'health: the database did not take a write');
    return 'down';
  }
}

/** The queue's depth, or null when the database does not answer (the database check says why). */
async function queueState(deps: HttpDeps): Promise<{ queued: number; oldestCreatedAt: number | null } | null> {
  try {
    return await deps.store.health.queue();
  } catch {
    return null;
  }
}
