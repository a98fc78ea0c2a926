import { newId } from '../ids';
import { claimParams, leasedRows, type Lease } from './lease';
import type { SqlConnection } from './sql/connection';

/** One voice-path self-test (docs/telephony.md "Voice-path self-test"). */
export interface SelfTestRecord {
  id: string;
  trunk: string;
  number: string;
  expect: 'answer' | 'echo';
  ok: boolean;
  reason: string;
  /** Our frames received back in order / frames sent; null unless `expect = "echo"` (and answered). */
  echoRatio: number | null;
  /** `schedule`: a server's scheduled run; `cli`: `voice-alert self-test run`. */
  origin: 'schedule' | 'cli';
  startedAt: number;
  finishedAt: number;
}

export type NewSelfTest = Omit<SelfTestRecord, 'id'>;

interface Row {
  id: string;
  trunk: string;
  number: string;
  expect: 'answer' | 'echo';
  ok: number;
  reason: string;
  echo_ratio: number | null;
  origin: 'schedule' | 'cli';
  started_at: number;
  finished_at: number;
}

const toRecord = (r: Row): SelfTestRecord => ({
  id: r.id,
  trunk: r.trunk,
  number: r.number,
  expect: r.expect,
  ok: Number(r.ok) === 1,
  reason: r.reason,
  echoRatio: r.echo_ratio === null ? null : Number(r.echo_ratio),
  origin: r.origin,
  startedAt: Number(r.started_at),
  finishedAt: Number(r.finished_at),
});

/**
 * Self-test results, and each trunk's schedule row (src/self-test/scheduler.ts). Scheduled
 * runs are per-row jobs like the outbox's: a trunk's row is claimed under a lease set and
 * compared by the lease clock (dialect.ts: the database's own on PostgreSQL, with FOR UPDATE
 * SKIP LOCKED), so exactly one appliance runs each; a crash lets the lease run out and
 * another appliance runs it. Writes run inside the caller's transaction.
 */
export interface SelfTestsStore {
  add(t: NewSelfTest): Promise<SelfTestRecord>;
  /** Newest first. */
  list(limit: number): Promise<SelfTestRecord[]>;
  /** The newest result of each trunk, by trunk name. */
  latestPerTrunk(): Promise<SelfTestRecord[]>;
  /** The newest result of one trunk, or null. */
  latest(trunk: string): Promise<SelfTestRecord | null>;
  /** A schedule row for the trunk, first due `firstInMs` from now, unless it has one. */
  schedule(trunk: string, firstInMs: number, now: number): Promise<void>;
  /**
   * A run asked for now (the panel's "run self-test now"): the trunk's row is due at once, made
   * when scheduled runs are off (self_test.interval_s = 0). The scheduler claims it as any due row.
   */
  requestRun(trunk: string, now: number): Promise<void>;
  /** Whether any row is due by the database's clock (a plain read before claiming). */
  anyDue(now: number): Promise<boolean>;
  /** Leases the trunk's row when it is due and not leased to anyone else; false otherwise. */
  claim(trunk: string, now: number, lease: Lease): Promise<boolean>;
  /** Done: due again `intervalMs` from now, lease let go. False when the lease was not ours any more. */
  finish(trunk: string, owner: string, intervalMs: number, now: number): Promise<boolean>;
  releaseLeases(owner: string): Promise<number>;
}

export function createSelfTestsStore(db: SqlConnection): SelfTestsStore {
  const leases = leasedRows(db, { table: 'self_test_schedule', key: 'trunk' });
  const ln = leases.sql.now;
  const claimQuery = db.query(leases.sql.claim({ due: `trunk = $trunk AND next_run_at <= ${ln}`, order: 'trunk', returning: 'trunk' }));
  const finishQuery = db.query(leases.sql.finish({ set: `next_run_at = ${ln} + $interval` }));
  return {
    async add(t) {
      const id = newId('st', t.startedAt);
      const row = (await db
        .query(
          `INSERT INTO self_tests (id, trunk, number, expect, ok, reason, echo_ratio, origin, started_at, finished_at)
           VALUES ($id, $trunk, $number, $expect, $ok, $reason, $ratio, $origin, $started, $finished) RETURNING *`,
        )
        .get({
          id,
          trunk: t.trunk,
          number: t.number,
          expect: t.expect,
          ok: t.ok ? 1 : 0,
          reason: t.reason,
          ratio: t.echoRatio,
          origin: t.origin,
          started: t.startedAt,
          finished: t.finishedAt,
        })) as Row;
      return toRecord(row);
    },
    async list(limit) {
      return ((await db.query('SELECT * FROM self_tests ORDER BY finished_at DESC, id DESC LIMIT $limit').all({ limit })) as Row[]).map(toRecord);
    },
    async latestPerTrunk() {
      const rows = (await db
        .query(
          `SELECT * FROM self_tests s WHERE s.id = (
             SELECT id FROM self_tests l WHERE l.trunk = s.trunk ORDER BY l.finished_at DESC, l.id DESC LIMIT 1)
           ORDER BY s.trunk`,
        )
        .all({})) as Row[];
      return rows.map(toRecord);
    },
    async latest(trunk) {
      const row = (await db.query('SELECT * FROM self_tests WHERE trunk = $trunk ORDER BY finished_at DESC, id DESC LIMIT 1').get({ trunk })) as Row | null;
      return row ? toRecord(row) : null;
    },
    async schedule(trunk, firstInMs, now) {
      await db
        .query(`INSERT INTO self_test_schedule (trunk, next_run_at) VALUES ($trunk, ${ln} + $first) ON CONFLICT (trunk) DO NOTHING`)
        .run({ trunk, first: firstInMs, now });
    },
    async requestRun(trunk, now) {
      await db
        .query(`INSERT INTO self_test_schedule (trunk, next_run_at) VALUES ($trunk, ${ln}) ON CONFLICT (trunk) DO UPDATE SET next_run_at = ${ln}`)
        .run({ trunk, now });
    },
    async anyDue(now) {
      return (await db.query(`SELECT 1 AS due FROM self_test_schedule WHERE next_run_at <= ${ln} LIMIT 1`).get({ now })) !== null;
    },
    async claim(trunk, now, lease) {
      return (await claimQuery.all({ ...claimParams(now, 1, lease), trunk })).length === 1;
    },
    async finish(trunk, owner, intervalMs, now) {
      return (await finishQuery.run({ key: trunk, owner, interval: intervalMs, now })).changes === 1;
    },
    async releaseLeases(owner) {
      return leases.release(owner);
    },
  };
}
