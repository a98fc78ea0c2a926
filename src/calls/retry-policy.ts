import { trunkSilence, type CallOutcome, type CallState } from '../call-model';

/**
 * The one place that decides what an attempt's outcome means (CONVENTIONS: retry in one
 * place). Transports and the SIP layer only report.
 *
 *   busy       486, 600                               retried
 *   no_answer  ring timeout (CANCEL), 408, 480, 487   retried (408 includes our own Timer B)
 *   rejected   403, 404, 484, 603                     never retried: the number or trunk says no
 *   failed     5xx, other 4xx/6xx, 401/407 after our credentials, network, media, audio
 *                                                     retried; but a message with nothing
 *                                                     speakable (EMPTY_TEXT) fails at once,
 *                                                     and 488/606 (our offer is not acceptable,
 *                                                     RFC 3261 §21.4.26, §21.6.4) fail at once:
 *                                                     the retry would send the identical offer
 *   failed     interrupted: answered, but the far end hung up before the message was
 *              played once in full                    retried
 *
 * A retried outcome waits calls.retry_delays_s[attempt-1] (the last delay repeats), or the
 * response's Retry-After when that is longer (a 503's "come back in N s", §20.33), and goes
 * back to `queued`, until calls.max_attempts is used up; then its kind is the final state.
 */
export interface RetryConfig {
  retry_delays_s: number[];
  max_attempts: number;
}

export type Decision =
  | { final: true; state: CallState; sipCode: number | null; reason: string }
  | { final: false; kind: 'busy' | 'no_answer' | 'failed'; runAfter: number; sipCode: number | null; reason: string };

const REJECTED = new Set([403, 404, 484, 603]);
const BUSY = new Set([486, 600]);
const NO_ANSWER = new Set([408, 480, 487]);
/** Our SDP offer is not acceptable there: the same offer would fail the same way. */
const OFFER_REFUSED = new Set([488, 606]);

export function classify(o: CallOutcome): { state: CallState; retryable: boolean } {
  switch (o.code) {
    case 'COMPLETED':
      return { state: 'completed', retryable: false };
    case 'ACKNOWLEDGED':
      return { state: 'acknowledged', retryable: false };
    // Left on a voicemail: nobody heard it, but calling the mailbox again would not change that.
    case 'VOICEMAIL':
      return { state: 'voicemail', retryable: false };
    // Keypad 3: heard, handed on (the escalation's next step starts at once).
    case 'PASSED':
      return { state: 'completed', retryable: false };
    case 'NO_ANSWER':
      return { state: 'no_answer', retryable: true };
    case 'SIP_FINAL':
      if (REJECTED.has(o.status)) return { state: 'rejected', retryable: false };
      if (BUSY.has(o.status)) return { state: 'busy', retryable: true };
      if (NO_ANSWER.has(o.status)) return { state: 'no_answer', retryable: true };
      if (OFFER_REFUSED.has(o.status)) return { state: 'failed', retryable: false };
      return { state: 'failed', retryable: true };
    case 'AUDIO':
      return { state: 'failed', retryable: o.errorCode !== 'EMPTY_TEXT' };
    case 'INTERRUPTED':
    case 'NETWORK':
    case 'MEDIA':
    case 'ABORTED':
      return { state: 'failed', retryable: true };
  }
}

export function decide(o: CallOutcome, attempt: number, now: number, config: RetryConfig): Decision {
  const { state, retryable } = classify(o);
  const sipCode = o.status;
  // A trunk that sent nothing back is said so (issue 49's one vocabulary), not as our CANCEL's 487.
  const reason = trunkSilence(o) ?? (o.status ? `${o.status} ${o.reason}`.trim() : o.reason);
  if (!retryable || attempt >= config.max_attempts) {
    const exhausted = retryable ? ` (attempt ${attempt} of ${config.max_attempts})` : '';
    return { final: true, state, sipCode, reason: reason + exhausted };
  }
  const delays = config.retry_delays_s;
  const ownS = delays.length === 0 ? 0 : delays[Math.min(attempt - 1, delays.length - 1)]!;
  const retryAfterS = o.code === 'SIP_FINAL' ? (o.retryAfterS ?? 0) : 0;
  const delayS = Math.max(ownS, retryAfterS);
  return { final: false, kind: state as 'busy' | 'no_answer' | 'failed', runAfter: now + delayS * 1000, sipCode, reason };
}
