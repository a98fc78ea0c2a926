import { markUnacknowledged } from '../alerts';
import { emitAlertEvent } from '../callbacks';
import { isFinal } from '../call-model';
import type { Clock } from '../clock';
import { periodOf } from '../credit';
import type { Logger } from '../log';
import type { LoopSpec } from '../engine';
import { ordinalOf, type AlertRecord, type CallSource, type Escalation, type Store, type Tx } from '../store';

import { metrics } from '../metrics';
import { outOfRoundsReason } from './out-of-rounds';
import { routeFrom } from './route';
import { fallbackTarget, recordUnroutable } from './unroutable';

/** The calls' source: the alert's, where it is one a call may have. */
const callSourceOf = (alert: AlertRecord): CallSource =>
  alert.source === 'api' || alert.source === 'test' || alert.source === 'heartbeat' ? alert.source : 'webhook';

/** A step whose calls are still going on is looked at again at least this often. */
const SAFETY_LOOK_MS = 60_000;

export interface EscalationEngineDeps {
  store: Store;
  /** The dialer's clock: a restart resumes every schedule where it was. */
  clock: Clock;
  log: Logger;
  /** credit.timezone: each step's calls are charged in the current period. */
  timeZone: string;
  /** New calls were queued: wake the dialer. */
  onQueued?: (callIds: string[]) => void;
  /** How often the engine looks (default 1 s). */
  everyMs?: number;
}

/**
 * Drives every running escalation from the durable schedule in the store (docs/on-call.md
 * "Escalation: call until someone presses 1"). No in-memory timer holds any state: each
 * look reads the escalation, its alert and its step's calls, decides, and writes in one
 * transaction guarded by the step it read, so a restart (or a second engine) never starts a
 * step twice and never skips one.
 * Every appliance on one PostgreSQL runs an engine; none leads: a look takes the due rows
 * with FOR UPDATE SKIP LOCKED (escalations.due), so two engines share them out instead of
 * waiting for each other, and a row held by an appliance that hung is let go when the
 * server ends its transaction (idle_in_transaction_session_timeout, TCP keepalive).
 *
 *   step n running ──every call of step n ended, no keypad 1,
 *                    and wait_s since step n began (or keypad 3)──> step n+1 (next round after the last)
 *   a step that reaches nobody ──at once──> the step after it
 *   every step reaches nobody ──> the account's fallback is called (none: alert unacknowledged, with why)
 *   after the last step of the last round, or no credit for the next ──> alert unacknowledged
 *   alert acknowledged or resolved (keypad 1, API, panel) ──> done
 */
export interface EscalationEngine extends LoopSpec {
  /** Looks at every escalation that is due; resolves once its transaction committed. */
  tick(): Promise<void>;
}

export function createEscalationEngine(d: EscalationEngineDeps): EscalationEngine {
  const log = d.log.child({ component: 'escalation' });

  /** `say`: log lines, spoken once the transaction committed (it may run twice: sql/database.ts). */
  const look = async (tx: Tx, e: Escalation, now: number, say: (() => void)[]): Promise<string[]> => {
    const alert = await tx.alerts.get(e.alertId);
    if (!alert || alert.state !== 'open') {
      await tx.escalations.finish(e.alertId, `alert ${alert?.state ?? 'missing'}`);
      return [];
    }
    const ordinal = ordinalOf(e);
    const allCalls = await tx.calls.ofAlert(e.alertId);
    const calls = allCalls.filter((c) => c.escalationOrdinal === ordinal);
    const waitEnd = e.stepStartedAt + e.plan.steps[e.step]!.wait_s * 1000;
    if (calls.some((c) => !isFinal(c.state))) {
      // A call that ends wakes the escalation up (call-mover); this is only a safety net.
      await tx.escalations.postpone(e.alertId, Math.max(now + SAFETY_LOOK_MS, e.skipWait ? 0 : waitEnd));
      return [];
    }
    if (!e.skipWait && now < waitEnd) {
      await tx.escalations.postpone(e.alertId, waitEnd);
      return [];
    }
    let round = e.round;
    let step = e.step + 1;
    if (step >= e.plan.steps.length) {
      round += 1;
      step = 0;
    }
    // A step that reaches nobody (an empty schedule, a gap in the rota) moves on at once
    // (docs/on-call.md "Nothing silently calls nobody"); a whole pass reaching nobody is unroutable.
    const route = await routeFrom(tx, e.accountId, e.plan, { round, step }, now);
    if (route.kind === 'out_of_rounds') {
      // Steps passed over in some round are named, never "every step called" (out-of-rounds.ts).
      const reason = outOfRoundsReason(e.plan, allCalls.map((c) => c.escalationOrdinal), route.skipped);
      if (await tx.escalations.finish(e.alertId, reason)) await markUnacknowledged({ store: tx, timeZone: d.timeZone }, alert, now, reason);
      say.push(() => log.info({ alert: e.alertId, skipped: route.skipped }, reason));
      return [];
    }
    if (route.kind === 'nobody') return reachNobody(tx, e, alert, route.why, now, say);
    ({ round, step } = route);
    const next = e.plan.steps[step]!;
    if (!(await tx.escalations.advance(e.alertId, e, { round, step, startedAt: now, nextAt: now + next.wait_s * 1000 }))) return [];
    // Whoever is on call in the step's schedules as it starts (docs/on-call.md "On-call schedules").
    const numbers = route.numbers;
    const account = await tx.accounts.get(e.accountId);
    if (!account || !(await tx.usage.tryCharge(account.id, periodOf(now, d.timeZone), numbers.length, account.monthlyCredit))) {
      const reason = 'Insufficient call credit';
      await tx.escalations.finish(e.alertId, reason);
      await markUnacknowledged({ store: tx, timeZone: d.timeZone }, alert, now, reason);
      say.push(() => log.warn({ alert: e.alertId, round, step }, 'escalation stopped: insufficient call credit'));
      return [];
    }
    const callIds = await tx.calls.enqueue(
      route.targets.map((t) => ({
        accountId: e.accountId,
        credentialId: e.credentialId,
        source: callSourceOf(alert),
        phoneNumber: t.number,
        message: e.message,
        alertId: e.alertId,
        escalationOrdinal: ordinalOf({ plan: e.plan, round, step }),
        person: t.person,
      })),
      now,
    );
    // The outcome callback `alert.escalated`, in this transaction (at least once, in order).
    await emitAlertEvent(tx, 'alert.escalated', alert, now, { escalation: { round, step: step + 1, numbers, call_ids: callIds } });
    say.push(() => log.info({ alert: e.alertId, round, step, calls: callIds, skipped: route.skipped }, 'escalated to the next step'));
    return callIds;
  };

  /**
   * Every step of the plan reaches nobody now: the escalation ends with why, and the
   * account's fallback is called as a plain call of the alert (it settles like one); with no
   * fallback (or no credit for it) the alert ends unacknowledged with why (unroutable.ts).
   */
  const reachNobody = async (tx: Tx, e: Escalation, alert: AlertRecord, why: string, now: number, say: (() => void)[]): Promise<string[]> => {
    if (!(await tx.escalations.finish(e.alertId, why))) return [];
    const target = await fallbackTarget(tx, e.accountId);
    const number = target?.number ?? null;
    const account = number ? await tx.accounts.get(e.accountId) : null;
    const charged = number !== null && account !== null && (await tx.usage.tryCharge(account.id, periodOf(now, d.timeZone), 1, account.monthlyCredit));
    const callIds = charged
      ? await tx.calls.enqueue(
          [{ accountId: e.accountId, credentialId: e.credentialId, source: callSourceOf(alert), phoneNumber: number, message: e.message, alertId: e.alertId, escalationOrdinal: 0, person: target!.person }],
          now,
        )
      : [];
    await recordUnroutable(tx, alert, why, now, { timeZone: d.timeZone, fallback: number ? { number, callIds } : null });
    say.push(() => {
      metrics.alertsUnroutable.inc();
      log.warn({ alert: e.alertId, why, fallback: number, calls: callIds }, 'nobody to call');
    });
    return callIds;
  };

  const tick = async () => {
    const now = d.clock();
    // A plain read first: most looks find nothing due, and cost no transaction.
    if ((await d.store.escalations.due(now, 1)).length === 0) return;
    let said: (() => void)[] = [];
    const queued = await d.store.transaction(async (tx) => {
      said = [];
      const callIds: string[] = [];
      for (const e of await tx.escalations.due(now)) callIds.push(...(await look(tx, e, now, said)));
      return callIds;
    });
    said.forEach((say) => say());
    if (queued.length > 0) d.onQueued?.(queued);
  };

  return { name: 'escalation', everyMs: d.everyMs ?? 1000, tick };
}
