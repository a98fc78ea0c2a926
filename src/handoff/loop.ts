import { isFinal } from '../call-model';
import type { Clock } from '../clock';
import type { LoopSpec } from '../engine';
import { fallbackTarget } from '../escalation';
import { enqueueCalls } from '../intake';
import { describeError, type Logger } from '../log';
import type { CallTarget } from '../people';
import { newLease, type CallRecord, type HandoffRecord, type HandoffStep, type Store, type Tx } from '../store';
import { HANDOFF_TIMING, type HandoffTiming } from './timing';
import { handoffAlertKey, handoffAlertMessage, type HandoffLanguage } from './words';

/** Tries before the alert: the contract's "two tries". */
const TRIES_BEFORE_ALERT = 2;
const CLAIM_LIMIT = 20;

export interface HandoffLoopDeps {
  store: Store;
  clock: Clock;
  log: Logger;
  /** calls.lease_s in ms: a loop that hangs after a claim leaves the hand-off to another appliance this long after. */
  leaseMs: number;
  /** credit.timezone: the alert's charge and refunds. */
  timeZone: string;
  /** panel.language: the alert's text for an outgoing bare number. */
  language: HandoffLanguage;
  /** Why new calls would wait (no SIP trunk), as the intake stores it. */
  waitReason?: () => string | null;
  /** New calls were queued (hand-off calls, the alert's): wake the dialer. */
  onQueued?: (callIds: string[]) => void;
  timing?: Partial<HandoffTiming>;
}

/**
 * Hand-off calls (docs/on-call.md "Hand-off calls"). The on-call
 * watch writes a `handoffs` row at each hand-off of a schedule with `handoff_call`, once
 * across appliances (src/schedules/watch.ts); this loop claims due rows under a lease by the
 * database's clock (store/lease.ts) and takes each one step, in one transaction whose last
 * write checks the lease is still this loop's and the state is still the one it read: the
 * call it queued or the alert it raised commits with that step, or not at all. A 1 on any of
 * its calls confirms the hand-off in the call mover's transaction (confirm.ts).
 *
 *   calling ──try 1 (at once)──> try 2 (retryAfterMs after try 1 ended, within 10 min)
 *      │  1 pressed ─────────────────────────────────────────────> confirmed
 *      │  two tries ended without a 1, or confirmWithinMs (10 min) passed
 *      v
 *   raised: alert handoff:<schedule> called to the outgoing person (else the account's fallback)
 *      │  the incoming person called again every laterEveryMs (laterTries at most, within their shift)
 *      │  1 pressed on any try ────> confirmed, the alert resolved ("a later 1 resolves it")
 *      └  the alert resolved by hand, tries used up, the shift over, the schedule deleted ──> ended
 *   A newer hand-off of the schedule ends an older one still at work (store/handoffs.ts add).
 *
 * A try calls the incoming person as they are now: try n their phone n (in turn, when they
 * have fewer), a bare number participant that number; it is a verification-shaped call
 * (uncharged, before alert calls, tried once, the words in their language).
 */
export interface HandoffLoop extends LoopSpec {
  /** One look: resolves with how many hand-offs moved on, once committed. */
  tick(): Promise<number>;
  end(): Promise<void>;
}

class LeaseLost extends Error {}

type Step = HandoffStep & { queued: string[]; what: string };

export function createHandoffLoop(d: HandoffLoopDeps): HandoffLoop {
  const log = d.log.child({ component: 'handoff' });
  const lease = newLease(d.leaseMs);
  const t: HandoffTiming = { ...HANDOFF_TIMING, ...d.timing };

  /** The next try's call to the incoming person, queued in `tx`. */
  const placeTry = async (tx: Tx, h: HandoffRecord, now: number): Promise<string[]> => {
    const person = h.incoming.person ? await tx.people.get(h.incoming.person) : null;
    const index = person && person.phones.length > 0 ? h.tries % person.phones.length : null;
    const number = index !== null ? person!.phones[index]!.number : h.incoming.number;
    return tx.calls.enqueue(
      [
        {
          accountId: h.accountId,
          credentialId: null,
          source: 'handoff',
          phoneNumber: number,
          message: `hand-off call for ${h.scheduleName}`,
          alertId: null,
          charged: false,
          person: index !== null ? { personId: person!.id, phone: index } : null,
          verify: true,
          handoffId: h.id,
          lastReason: d.waitReason?.() ?? null,
        },
      ],
      now,
    );
  };

  /** The alert, called to whoever goes off call as they are now; null target: nobody to call. */
  const raise = async (tx: Tx, h: HandoffRecord, now: number): Promise<{ alertId: string | null; queued: string[]; why: string | null }> => {
    const account = await tx.accounts.get(h.accountId);
    if (!account || account.disabled) return { alertId: null, queued: [], why: 'account disabled' };
    const off = h.outgoing?.person ? await tx.people.get(h.outgoing.person) : null;
    const target: CallTarget | null = off
      ? off.phones[0]
        ? { number: off.phones[0].number, person: { personId: off.id, phone: 0 } }
        : null
      : h.outgoing
        ? { number: h.outgoing.number, person: null }
        : await fallbackTarget(tx, h.accountId);
    if (!target) return { alertId: null, queued: [], why: 'nobody goes off call and the account has no fallback' };
    const language: HandoffLanguage = off?.language ?? d.language;
    const message = handoffAlertMessage(language, h.scheduleName, h.incoming.name ?? h.incoming.number, Math.round(t.confirmWithinMs / 60_000));
    const inThisTransaction = { transaction: <T>(work: (x: Tx) => Promise<T>) => work(tx) };
    const r = await enqueueCalls(
      inThisTransaction,
      () => now,
      { timeZone: d.timeZone, dedupeWindowMs: 0, waitReason: d.waitReason?.() ?? null },
      {
        endpoint: 'webhook',
        source: 'handoff',
        origin: { source: 'handoff', labels: { schedule: h.scheduleName } },
        accountId: h.accountId,
        monthlyCredit: account.monthlyCredit,
        credentialId: null,
        phoneNumbers: [target.number],
        targets: [target],
        message,
        alertKey: handoffAlertKey(h.scheduleName),
        idempotencyKey: null,
      },
    );
    if (r.outcome.code !== 'QUEUED') return { alertId: null, queued: [], why: r.outcome.code };
    return { alertId: r.outcome.alertId ?? null, queued: r.outcome.callIds, why: null };
  };

  const decide = async (tx: Tx, h: HandoffRecord, now: number): Promise<Step> => {
    const keep: Step = { state: h.state, tries: h.tries, callId: h.callId, nextAt: now + t.pollMs, alertId: h.alertId, endedReason: null, queued: [], what: '' };
    const ended = (why: string): Step => ({ ...keep, state: 'ended', endedReason: why, what: `ended: ${why}` });
    const schedule = await tx.schedules.get(h.scheduleId);
    if (!schedule) return ended('the schedule was deleted');
    if (!schedule.handoffCall) return ended('hand-off calls were turned off');
    const call: CallRecord | null = h.callId ? await tx.calls.get(h.callId) : null;
    const running = call !== null && !isFinal(call.state);
    const lastEnded = call?.finishedAt ?? now;
    const nextTry = async (state: Step['state']): Promise<Step> => {
      const queued = await placeTry(tx, h, now);
      return { ...keep, state, tries: h.tries + 1, callId: queued[0] ?? null, queued, what: `try ${h.tries + 1}` };
    };

    if (h.state === 'calling') {
      const deadline = h.at + t.confirmWithinMs;
      const triesLeft = h.tries < TRIES_BEFORE_ALERT && now < deadline;
      if (running && now < deadline) return { ...keep, nextAt: Math.min(now + t.pollMs, deadline) };
      if (!running && h.tries === 0) return nextTry('calling');
      if (!running && triesLeft) {
        const retryAt = lastEnded + t.retryAfterMs;
        if (now >= retryAt) return nextTry('calling');
        return { ...keep, nextAt: Math.min(retryAt, deadline) };
      }
      // Two tries ended without a 1, or the 10 minutes passed (a try may still ring: its 1 resolves the alert).
      const r = await raise(tx, h, now);
      if (!r.alertId) return ended(`not confirmed, and no alert raised: ${r.why}`);
      return { ...keep, state: 'raised', alertId: r.alertId, queued: r.queued, nextAt: running ? now + t.pollMs : lastEnded + t.laterEveryMs, what: 'alert raised' };
    }

    // raised
    const alert = h.alertId ? await tx.alerts.get(h.alertId) : null;
    if (!alert || alert.state === 'resolved') return ended('the alert was resolved');
    if (running) return keep;
    if (h.tries >= TRIES_BEFORE_ALERT + t.laterTries) return ended('no 1 after every try');
    if (h.until !== null && now >= h.until) return ended("the incoming person's shift is over");
    const laterAt = lastEnded + t.laterEveryMs;
    if (now < laterAt) return { ...keep, nextAt: laterAt };
    return nextTry('raised');
  };

  /** One hand-off, one step, one transaction; null when its lease was lost (another appliance has it). */
  const look = async (claimed: HandoffRecord): Promise<Step | null> =>
    d.store
      .transaction(async (tx) => {
        const now = d.clock();
        const step = await decide(tx, claimed, now);
        // Last: only while this loop still holds it and nobody confirmed it meanwhile; else
        // the call queued and the alert raised above roll back with it.
        if (!(await tx.handoffs.finish(claimed.id, lease.owner, claimed.state, step))) throw new LeaseLost();
        return step;
      })
      .catch((e) => {
        if (e instanceof LeaseLost) return null;
        throw e;
      });

  const tick = async (): Promise<number> => {
    // A plain read first: most looks find nothing due and cost no transaction.
    if (!(await d.store.handoffs.anyDue(d.clock()))) return 0;
    const claimed = await d.store.transaction((tx) => tx.handoffs.claim(d.clock(), CLAIM_LIMIT, lease));
    let moved = 0;
    for (const h of claimed) {
      const step = await look(h);
      if (!step) continue;
      if (step.what) {
        moved++;
        const fields = { handoff: h.id, account: h.accountId, schedule: h.scheduleName, incoming: h.incoming.number, calls: step.queued, ...(step.alertId ? { alert: step.alertId } : {}) };
        if (step.state === 'raised' && h.state === 'calling') log.warn(fields, 'hand-off not confirmed: alert raised');
        else if (step.state === 'ended') log.info({ ...fields, reason: step.endedReason }, 'hand-off ended');
        else log.info({ ...fields, try: step.tries }, 'hand-off call queued');
      }
      if (step.queued.length > 0) d.onQueued?.(step.queued);
    }
    return moved;
  };

  return {
    name: 'handoff-calls',
    everyMs: t.pollMs,
    tick,
    async end() {
      await d.store.transaction((tx) => tx.handoffs.release(lease.owner)).catch((e) => log.warn({ error: describeError(e) }, 'letting go of hand-off leases failed'));
    },
  };
}
