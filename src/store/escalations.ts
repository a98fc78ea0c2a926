import type { SqlConnection } from './sql/connection';
import { dialectOf } from './sql/dialect';
import type { PolicyStep } from './policies';

export interface EscalationPlan {
  steps: PolicyStep[];
  rounds: number;
}

export interface Escalation {
  alertId: string;
  accountId: string;
  credentialId: string | null;
  policyId: string;
  plan: EscalationPlan;
  message: string;
  /** 1-based. */
  round: number;
  /** 0-based within the round. */
  step: number;
  stepStartedAt: number;
  nextAt: number;
  skipWait: boolean;
  state: 'running' | 'done';
  reason: string | null;
}

interface EscalationRow {
  alert_id: string;
  account_id: string;
  credential_id: string | null;
  policy_id: string;
  plan: string;
  message: string;
  round: number;
  step: number;
  step_started_at: number;
  next_at: number;
  skip_wait: number;
  state: 'running' | 'done';
  reason: string | null;
}

const toEscalation = (r: EscalationRow): Escalation => ({
  alertId: r.alert_id,
  accountId: r.account_id,
  credentialId: r.credential_id,
  policyId: r.policy_id,
  plan: JSON.parse(r.plan) as EscalationPlan,
  message: r.message,
  round: r.round,
  step: r.step,
  stepStartedAt: r.step_started_at,
  nextAt: r.next_at,
  skipWait: r.skip_wait === 1,
  state: r.state,
  reason: r.reason,
});

/** The position of a step counted across rounds, 1-based: what calls.escalation_ordinal holds. */
export const ordinalOf = (e: Pick<Escalation, 'plan' | 'round' | 'step'>) => (e.round - 1) * e.plan.steps.length + e.step + 1;

/**
 * The durable escalation schedule: one row per alert under a policy. Every change is made
 * inside the caller's write transaction and guarded by the position it was read at, so two
 * engines (or a restart) never start a step twice.
 */
export interface EscalationsStore {
  start(e: Omit<Escalation, 'skipWait' | 'state' | 'reason'>): Promise<void>;
  get(alertId: string): Promise<Escalation | null>;
  /**
   * Running escalations whose next look is due. Inside a transaction on PostgreSQL they are
   * locked for it, and rows another transaction holds are left out (FOR UPDATE SKIP LOCKED).
   */
  due(now: number, limit?: number): Promise<Escalation[]>;
  /** Moves to the given position if still at `from`; false when someone else moved it first. */
  advance(alertId: string, from: { round: number; step: number }, to: { round: number; step: number; startedAt: number; nextAt: number }): Promise<boolean>;
  /** Looks again at `nextAt` (nothing else changes). */
  postpone(alertId: string, nextAt: number): Promise<void>;
  /** These alerts' running escalations look again no later than `now` (a call of theirs ended, or the alert closed). */
  wakeUp(alertIds: readonly string[], now: number): Promise<void>;
  /** Keypad 3: the current step of these alerts' escalations ends as soon as its calls have. */
  skipWait(alertIds: readonly string[], now: number): Promise<void>;
  finish(alertId: string, reason: string): Promise<boolean>;
}

export function createEscalationsStore(db: SqlConnection): EscalationsStore {
  const sql = dialectOf(db.dialect);
  // In a transaction on PostgreSQL, the rows are this transaction's until it ends; another
  // appliance's engine passes over them (escalation/engine.ts).
  const dueQuery = db.query(
    `SELECT * FROM escalations WHERE state = 'running' AND next_at <= $now ORDER BY next_at LIMIT $limit${sql.skipLocked}`,
  );
  return {
    async start(e) {
      await db.query(
        `INSERT INTO escalations (alert_id, account_id, credential_id, policy_id, plan, message, round, step, step_started_at, next_at, state)
         VALUES ($alert, $account, $cred, $policy, $plan, $message, $round, $step, $started, $next, 'running')`,
      ).run({
        alert: e.alertId,
        account: e.accountId,
        cred: e.credentialId,
        policy: e.policyId,
        plan: JSON.stringify(e.plan),
        message: e.message,
        round: e.round,
        step: e.step,
        started: e.stepStartedAt,
        next: e.nextAt,
      });
    },
    async get(alertId) {
      const row = (await db.query('SELECT * FROM escalations WHERE alert_id = $a').get({ a: alertId })) as EscalationRow | null;
      return row ? toEscalation(row) : null;
    },
    async due(now, limit = 100) {
      return ((await dueQuery.all({ now, limit })) as EscalationRow[]).map(toEscalation);
    },
    async advance(alertId, from, to) {
      return (
        (await db
          .query(
            `UPDATE escalations SET round = $round, step = $step, step_started_at = $started, next_at = $next, skip_wait = 0
             WHERE alert_id = $a AND state = 'running' AND round = $fromRound AND step = $fromStep`,
          )
          .run({ a: alertId, round: to.round, step: to.step, started: to.startedAt, next: to.nextAt, fromRound: from.round, fromStep: from.step })).changes === 1
      );
    },
    async postpone(alertId, nextAt) {
      await db.query(`UPDATE escalations SET next_at = $n WHERE alert_id = $a AND state = 'running'`).run({ a: alertId, n: nextAt });
    },
    async wakeUp(alertIds, now) {
      if (alertIds.length === 0) return;
      await db
        .query(`UPDATE escalations SET next_at = ${sql.least('next_at', '$now')} WHERE alert_id IN (SELECT value FROM ${sql.jsonTexts('$ids')}) AND state = 'running'`)
        .run({ ids: JSON.stringify(alertIds), now });
    },
    async skipWait(alertIds, now) {
      if (alertIds.length === 0) return;
      await db
        .query(`UPDATE escalations SET skip_wait = 1, next_at = $now WHERE alert_id IN (SELECT value FROM ${sql.jsonTexts('$ids')}) AND state = 'running'`)
        .run({ ids: JSON.stringify(alertIds), now });
    },
    async finish(alertId, reason) {
      return (await db.query(`UPDATE escalations SET state = 'done', reason = $r WHERE alert_id = $a AND state = 'running'`).run({ a: alertId, r: reason })).changes === 1;
    },
  };
}
