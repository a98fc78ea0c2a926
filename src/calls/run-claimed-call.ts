import { CLAIMED_STATE, IllegalTransitionError, type CallAudioSource, type CallOutcome } from '../call-model';
import type { Clock } from '../clock';
import type { Logger } from '../log';
import type { AmdRequest, DialRequest } from '../sip';
import type { ClaimedCall, Store } from '../store';
import { createCallMover, type CallMover, type MoveDetails } from './call-mover';
import { decide, type Decision, type RetryConfig } from './retry-policy';
import { metrics } from '../metrics/instruments';

export interface RunConfig extends RetryConfig {
  answer_delay_ms: number;
  ring_timeout_s: number;
  max_age_s: number;
  max_call_s: number;
}

export interface RunDeps {
  store: Store;
  dial(request: DialRequest): Promise<CallOutcome>;
  audio: CallAudioSource;
  clock: Clock;
  log: Logger;
  calls: RunConfig;
  /** An attempt still unsettled after this is given up (see DialerDeps.attemptLimitMs). */
  attemptLimitMs: number;
  /** Aborted by a stopping dialer: before the answer the attempt is cancelled (back to the queue). */
  shutdown: AbortSignal;
  /** Aborted when the shutdown grace ran out: an answered call hangs up. */
  hangUp: AbortSignal;
  /** credit.timezone: refunds of calls an acknowledgement cancels. */
  timeZone: string;
  /** Voicemail detection on every answer (`[amd]`); null or absent: off, every answer `unknown`. */
  amd?: AmdRequest | null;
  /**
   * True when no trunk that may dial `number` is up and the second path can carry a text
   * (docs/second-path.md "When no trunk is up"): a person's call is then texted, not dialled.
   * Absent: every call is dialled (through down trunks too, trunk-route.ts trunkOrder).
   */
  textInstead?: (number: string) => boolean;
}

/** Why a call was not dialled but texted (its events and `last_reason`). */
export const TEXTED_INSTEAD_REASON = "no trunk is up: texted to the person's --sms numbers instead";

/**
 * One claimed call, start to end: claim → dial → decide → move. What an outcome means is
 * retry-policy.ts's alone; the SIP layer only reports. An illegal edge (a bug here or in the
 * attempt's own state machine) ends the call `failed` with the reason, loudly.
 */
export async function runClaimedCall(d: RunDeps, call: ClaimedCall, cancel: AbortSignal = new AbortController().signal): Promise<void> {
  const mover = createCallMover(d, call, CLAIMED_STATE, call.bundled);
  try {
    await place(d, call, mover, cancel);
  } catch (e) {
    if (!(e instanceof IllegalTransitionError)) throw e;
    await mover.failLoudly(e);
  }
}

/**
 * `cancel` is aborted when every alert the call speaks was closed meanwhile (acknowledged by
 * someone else, resolved): before the answer it is cancelled, after it the call plays on.
 */
async function place(d: RunDeps, call: ClaimedCall, mover: CallMover, cancel: AbortSignal): Promise<void> {
  const attempt = call.attempts;
  if (attempt > d.calls.max_attempts) {
    // Only a lease that ran out (a crash mid-call) can bring a call here.
    await mover.move('failed', { reason: `attempts used up (${attempt - 1} of ${d.calls.max_attempts}); last one interrupted` });
    return;
  }
  if (d.clock() - call.createdAt > d.calls.max_age_s * 1000) {
    await mover.move('expired', { reason: `not placed within calls.max_age_s (${d.calls.max_age_s} s)` });
    return;
  }

  if (await textedInstead(d, call)) {
    // Not dialled: a failed attempt like one no trunk took, so retry-policy.ts alone still
    // decides (retried while attempts remain: a trunk back by then rings the person), and the
    // person is owed a text for this call in the same transaction (call-mover.ts).
    const at = d.clock();
    const decision = decide({ code: 'NETWORK', status: null, reason: TEXTED_INSTEAD_REASON }, attempt, at, d.calls);
    metrics.callAttempts.inc({ sip_code: 'none' });
    await moveAsDecided(mover, decision, at, { textInstead: true });
    return;
  }

  // The trunk the attempt went out on (the last one tried), recorded on every event after it.
  const via = { trunk: null as string | null };
  const outcome = await dialWithin(d, call, mover, AbortSignal.any([d.shutdown, cancel]), via);
  if (outcome.code === 'ABORTED') {
    // Back to the queue uncounted; the mover ends instead every call whose alert closed.
    const reason = cancel.aborted ? 'its alert was closed before the answer' : outcome.reason;
    await mover.move('queued', { reason, retryInMs: 0, refundAttempt: true, trunk: via.trunk });
    return;
  }
  // A verification call is tried once: its answer (busy, no answer, …) is the result the
  // person is waiting for (docs/on-call.md "Verification"), not a reason to ring again.
  const decidedAt = d.clock();
  const decision = decide(outcome, attempt, decidedAt, call.verify ? { ...d.calls, max_attempts: attempt } : d.calls);
  metrics.callAttempts.inc({ sip_code: decision.sipCode === undefined || decision.sipCode === null ? 'none' : String(decision.sipCode) });
  await moveAsDecided(mover, decision, decidedAt, { passToNextStep: outcome.code === 'PASSED', trunk: via.trunk });
}

/**
 * The attempt's end as retry-policy.ts decided it: its final state, or back in the queue for the
 * decided delay, counted from the move's own stamp (call-mover.ts retryInMs). `passToNextStep`
 * only counts for a final state.
 */
async function moveAsDecided(mover: CallMover, decision: Decision, decidedAt: number, extra: Partial<Pick<MoveDetails, 'passToNextStep' | 'trunk' | 'textInstead'>>): Promise<void> {
  const { passToNextStep, ...rest } = extra;
  if (decision.final) {
    await mover.move(decision.state, { sipCode: decision.sipCode, reason: decision.reason, passToNextStep, ...rest });
    return;
  }
  const retryInMs = decision.runAfter - decidedAt;
  await mover.move('queued', { sipCode: decision.sipCode, reason: `${decision.kind}: ${decision.reason}; retry in ${Math.round(retryInMs / 1000)} s`, retryInMs, ...rest });
}

/**
 * docs/second-path.md "When no trunk is up": a person's call for an alert (not a verification
 * call, which is about the phone itself) with an `--sms` number, when no trunk may place it and
 * the second path is up. A bare number, or a person with no `--sms` number, is dialled as ever.
 */
async function textedInstead(d: RunDeps, call: ClaimedCall): Promise<boolean> {
  if (!d.textInstead || !call.personId || !call.alertId || call.verify) return false;
  if (!d.textInstead(call.phoneNumber)) return false;
  const person = await d.store.people.get(call.personId);
  if (!person || person.sms.length === 0) return false;
  d.log.warn({ call: call.id, attempt: call.attempts, person: call.personId }, 'no trunk is up: the call is not dialled, the person is texted instead');
  return true;
}

/**
 * The attempt, with its progress recorded in order as it happens, bounded by the attempt
 * limit so a bug below us cannot hold a channel forever. Rejects only with an
 * IllegalTransitionError (from our moves or from the attempt's machine).
 */
async function dialWithin(d: RunDeps, call: ClaimedCall, mover: CallMover, signal: AbortSignal, via: { trunk: string | null }): Promise<CallOutcome> {
  let writes: Promise<unknown> = Promise.resolve();
  let bug: IllegalTransitionError | null = null;
  // Progress arrives from SIP callbacks; the moves are chained so they land in order, and
  // an illegal one is kept to be raised once the attempt is over.
  const later = (fn: () => Promise<unknown>) =>
    (writes = writes.then(fn).catch((e) => {
      if (e instanceof IllegalTransitionError) bug ??= e;
      else throw e;
    }));
  // A person's call speaks their language, as they are now (docs/on-call.md "People").
  const person = call.personId ? await d.store.people.get(call.personId) : null;
  const language = person?.language;
  const context = { escalationOrdinal: call.escalationOrdinal, ...(language ? { language } : {}) };
  // A hand-off call says the schedule and until when (docs/on-call.md "Hand-off calls"); a
  // verification call who it is for (docs/on-call.md "Verification"); neither speaks of alerts.
  const handoff = call.handoffId && d.audio.forHandoff ? await d.store.handoffs.get(call.handoffId) : null;
  const verifying = call.verify && !call.handoffId && person && d.audio.forVerification ? { name: person.name, forVerification: d.audio.forVerification.bind(d.audio) } : null;
  const confirmedAudio = handoff && d.audio.handoffConfirmed ? d.audio.handoffConfirmed.bind(d.audio) : call.verify && !call.handoffId && d.audio.verified ? d.audio.verified.bind(d.audio) : null;
  const request: DialRequest = {
    number: call.phoneNumber,
    // Rendering starts once the INVITE left and runs while the phone rings. Alerts bundled
    // into the call are spoken together, each named.
    audio: () =>
      handoff
        ? d.audio.forHandoff!({ schedule: handoff.scheduleName, until: handoff.until, timeZone: handoff.timeZone }, context)
        : verifying
        ? verifying.forVerification(verifying.name, context)
        : call.bundled.length === 0
        ? d.audio.forMessage(call.message, context)
        : d.audio.forBundle([call.message, ...call.bundled.map((b) => b.message)], context),
    // What a voicemail gets (docs/telephony.md "Voicemail detection"): the alerts once, and why.
    voicemailAudio: call.verify ? undefined : d.audio.forVoicemail && (() => d.audio.forVoicemail!([call.message, ...call.bundled.map((b) => b.message)], context)),
    // Says that this number is recorded as the one acknowledging (it is: alerts.acknowledged_by).
    acknowledgedAudio: () => (confirmedAudio ? confirmedAudio(context) : d.audio.acknowledged(call.phoneNumber, context)),
    ringTimeoutMs: d.calls.ring_timeout_s * 1000,
    answerDelayMs: d.calls.answer_delay_ms,
    maxCallMs: d.calls.max_call_s * 1000,
    signal,
    hangUpSignal: d.hangUp,
    amd: d.amd ?? null,
    progress: {
      ringing: (status, reason) => void later(() => mover.move('ringing', { sipCode: status, reason, trunk: via.trunk })),
      answered: (codec, by) => {
        metrics.callsAnswered.inc({ answered_by: by.answeredBy });
        void later(() => mover.move('answered', { sipCode: 200, reason: `answered (${codec})`, trunk: via.trunk, answeredBy: by.answeredBy, amdReason: by.amdReason }));
      },
      digit: (digit) => d.log.info({ call: call.id, digit }, 'keypad'),
      trunk: (name) => {
        via.trunk = name;
        d.log.info({ call: call.id, attempt: call.attempts, trunk: name }, 'call goes out through trunk');
      },
    },
  };
  const dialing: Promise<CallOutcome> = Promise.resolve()
    .then(() => d.dial(request))
    .catch((e: Error) => {
      if (e instanceof IllegalTransitionError) throw e;
      // A dial that throws (a trunk gone) is a failed attempt like any other.
      return { code: 'NETWORK', status: null, reason: `dial failed: ${e.message}` } as const;
    });
  let watchdog: ReturnType<typeof setTimeout> | undefined;
  const stuck = new Promise<CallOutcome>((resolve) => {
    watchdog = setTimeout(() => {
      d.log.error({ call: call.id, attempt: call.attempts, limitMs: d.attemptLimitMs }, 'attempt did not finish in time: channel released, call goes on as a failure');
      resolve({ code: 'NETWORK', status: null, reason: `attempt did not finish within ${Math.round(d.attemptLimitMs / 1000)} s` });
    }, d.attemptLimitMs);
  });
  try {
    const outcome = await Promise.race([dialing, stuck]).catch(async (e) => {
      await Promise.race([writes, stuck]); // progress recorded before the call is failed
      throw e;
    });
    await Promise.race([writes, stuck]);
    if (bug) throw bug;
    return outcome;
  } finally {
    clearTimeout(watchdog);
  }
}
