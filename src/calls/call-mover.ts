import { acknowledgeAlert, settleAlerts } from '../alerts';
import { callEventFor, emitCallEvents } from '../callbacks';
import { IllegalTransitionError, isFinal, isInProgress, isSuppressed, transition, type CallState } from '../call-model';
import type { Clock } from '../clock';
import { describeError, type Logger } from '../log';
import { metrics } from '../metrics/instruments';
import { leftUnreached, queueNextPhones, recordVerification } from '../people';
import type { CallChange, CallRecord, Store, Tx } from '../store';
import { confirmHandoff } from '../handoff';

export type MoveDetails = Pick<CallChange, 'sipCode' | 'reason' | 'refundAttempt' | 'trunk' | 'answeredBy' | 'amdReason'> & {
  /**
   * Back in the queue for this long from the move's own time (a retry's delay): counted from
   * the moment the attempt is recorded as ended, so "at least N s after the last attempt"
   * holds for what the events show.
   */
  retryInMs?: number;
  /** Keypad 3: the escalations of the alerts spoken pass to their next step without waiting. */
  passToNextStep?: boolean;
  /**
   * The attempt was not dialled, no trunk being up: each person whose call this is is owed a
   * text in its place (docs/second-path.md "When no trunk is up"), in this same transaction.
   */
  textInstead?: boolean;
};

/**
 * One claimed call's state as this worker holds it, with the calls bundled into it (the
 * same number's other alerts, spoken in this call): they take every edge together. Every
 * change goes through the call model's guarded transition() and is stored with its event,
 * only if the call is still as we left it (a worker whose lease was taken over changes
 * nothing). The alerts follow in the same transaction: keypad 1 acknowledges each alert
 * spoken, a call that ended settles its alert, and a retry of a call whose alert closed
 * meanwhile is cancelled instead.
 */
export interface CallMover {
  state(): CallState;
  /**
   * Moves the call (and its bundle); false when it changed under us (lease taken over).
   * Throws IllegalTransitionError for an edge the call model does not draw (a bug).
   */
  move(to: CallState, details?: MoveDetails): Promise<boolean>;
  /**
   * A bug was found (an illegal edge, here or in the attempt's own machine): the call ends
   * `failed` with the reason, logged as an error. Never carries on as if nothing happened.
   */
  failLoudly(error: IllegalTransitionError): Promise<void>;
}

export interface CallMoverDeps {
  store: Store;
  clock: Clock;
  log: Logger;
  /** credit.timezone: refunds of calls cancelled by an acknowledgement, the charge of a person's next phone. */
  timeZone: string;
}

type Held = Pick<CallRecord, 'id' | 'attempts' | 'alertId'>;

export function createCallMover(d: CallMoverDeps, call: Held & Pick<CallRecord, 'phoneNumber' | 'accountId'> & { verify?: boolean; handoffId?: string | null }, start: CallState, bundled: Held[] = []): CallMover {
  let state = start;
  let held: Held[] = [call, ...bundled];
  // A mover is made once per claim: the claim (the store's UPDATE) was the edge into `start`.
  metrics.callTransitions.inc({ to: start }, held.length);

  /**
   * Where each held call goes: a retry of a call whose alert closed (or a maintenance
   * window suppressed) ends instead. The alerts are read once for the whole bundle.
   */
  const targetsOf = async (tx: Tx, to: CallState): Promise<Map<CallState, Held[]>> => {
    if (to !== 'queued') return new Map([[to, held]]);
    const alertIds = [...new Set(held.map((c) => c.alertId).filter((a): a is string => a !== null))];
    const now = d.clock();
    const ended = new Set((await tx.alerts.getMany(alertIds)).filter((a) => a.state !== 'open' || isSuppressed(a, now)).map((a) => a.id));
    const targets = new Map<CallState, Held[]>();
    for (const c of held) {
      const target: CallState = c.alertId && ended.has(c.alertId) ? 'cancelled' : to;
      const group = targets.get(target) ?? [];
      group.push(c);
      targets.set(target, group);
    }
    return targets;
  };

  const write = async (to: CallState, { passToNextStep, retryInMs, textInstead, ...given }: MoveDetails) => {
    const at = d.clock();
    const details: Omit<MoveDetails, 'passToNextStep' | 'retryInMs'> & Pick<CallChange, 'runAfter'> = retryInMs === undefined ? given : { ...given, runAfter: at + retryInMs };
    // One transaction; everything in it goes through `tx` (it may run again as a whole).
    // The call and its bundle move in a statement per target, not one per call: a bundle
    // may carry thousands of alerts (BENCHMARKS "Alert storm").
    const { still: moved, reached, nextPhones } = await d.store.transaction(async (tx) => {
      const alerts = { store: tx, timeZone: d.timeZone };
      const movedIds = new Set<string>();
      for (const [target, group] of await targetsOf(tx, to)) {
        const ids = await tx.calls.moveAll(
          group.map((c) => ({ id: c.id, attempt: c.attempts })),
          {
            from: state,
            to: target,
            at,
            ...details,
            ...(target === 'cancelled' ? { reason: 'alert closed while waiting to retry', runAfter: undefined } : {}),
            answered: target === 'answered',
            acknowledged: target === 'acknowledged',
            finished: isFinal(target),
          },
        );
        for (const id of ids) movedIds.add(id);
        // Outcome callbacks, in this same transaction (which edges: src/callbacks/events.ts).
        const event = callEventFor(target);
        if (event) await emitCallEvents(tx, event, ids.map((id) => ({ id, accountId: call.accountId })), at);
      }
      const still = held.filter((c) => movedIds.has(c.id));
      if (still.length === 0 || still[0] !== call) return { still, reached: to, nextPhones: [] };
      if (textInstead) {
        for (const c of await tx.calls.getMany(still.map((h) => h.id))) {
          if (c.personId && c.alertId) await tx.textNotices.oweInstead({ alertId: c.alertId, personId: c.personId, accountId: c.accountId, createdAt: at, ordinal: c.escalationOrdinal });
        }
      }
      // A person not reached on this phone: their next one, at once, before the alert settles
      // (docs/on-call.md "People": phones in order).
      const nextPhones = leftUnreached(to, { retried: !details.refundAttempt })
        ? await queueNextPhones(tx, await tx.calls.getMany(still.map((c) => c.id)), { now: at, timeZone: d.timeZone })
        : [];
      // A verification call's end is kept on its person's phone (docs/on-call.md "Verification").
      if (call.verify && isFinal(to)) {
        const ended = await tx.calls.get(call.id);
        if (ended?.verify) await recordVerification(tx, ended, at);
      }
      // A 1 on a hand-off call confirms it, and resolves its alert if one was raised (docs/on-call.md "Hand-off calls").
      if (call.handoffId && to === 'acknowledged') await confirmHandoff(tx, call.handoffId, call.phoneNumber, at, d.timeZone);
      const alertIds = [...new Set(still.map((c) => c.alertId).filter((a): a is string => a !== null))];
      if (to === 'acknowledged') {
        const byId = new Map((await tx.alerts.getMany(alertIds)).map((a) => [a.id, a]));
        for (const id of alertIds) {
          const alert = byId.get(id);
          if (alert) await acknowledgeAlert(alerts, alert, call.phoneNumber, at);
        }
      }
      await settleAlerts(alerts, alertIds, at);
      // A call of an escalation ended: its engine looks again now, not at its next poll.
      if (isFinal(to)) await tx.escalations.wakeUp(alertIds, at);
      if (passToNextStep) await tx.escalations.skipWait(alertIds, at);
      // A step whose calls all ended on a voicemail reached nobody: the next step starts now,
      // not after its wait_s (docs/telephony.md "Voicemail detection").
      if (to === 'voicemail') {
        const nobody: string[] = [];
        for (const held of still) {
          const c = await tx.calls.get(held.id);
          if (c?.alertId && c.escalationOrdinal > 0 && (await tx.calls.stepAllOnVoicemail(c.alertId, c.escalationOrdinal))) nobody.push(c.alertId);
        }
        if (nobody.length > 0) await tx.escalations.skipWait([...new Set(nobody)], at);
      }
      // The state the call reached as this transaction leaves it (a retry may have become `cancelled`).
      return { still, reached: (await tx.calls.get(call.id))?.state ?? to, nextPhones };
    });
    if (moved[0] !== call) {
      d.log.warn({ call: call.id, from: state, to }, 'call changed under us (lease taken over); leaving it');
      return false;
    }
    if (moved.length < held.length) d.log.warn({ call: call.id, left: held.length - moved.length }, 'bundled calls changed under us; leaving them');
    held = moved;
    d.log.info({ call: call.id, bundled: held.length - 1, attempt: call.attempts, from: state, to: reached, sipCode: details.sipCode ?? null, reason: details.reason }, 'call state');
    metrics.callTransitions.inc({ to: reached }, held.length);
    // The dialer looks for due calls again as this call's handling ends (dialer.ts pump).
    if (nextPhones.length > 0) d.log.info({ call: call.id, calls: nextPhones }, "the person's next phone is called");
    state = reached;
    return true;
  };
  return {
    state: () => state,
    async move(to, details = {}) {
      transition(state, to);
      return write(to, details);
    },
    async failLoudly(error) {
      d.log.error({ call: call.id, attempt: call.attempts, state, error: describeError(error) }, 'bug: illegal transition; the call ends failed');
      // Every state a worker holds may end `failed` (the call model draws that edge), so
      // this write is itself legal; a call no longer held is left to whoever holds it.
      if (isInProgress(state)) await write('failed', { reason: `internal error: ${error.message}` });
    },
  };
}
