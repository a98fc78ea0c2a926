/**
 * Call states and the only edges between them (issue 4 §6).
 *
 *                 ┌──────────── retry after calls.retry_delays_s ────────────┐
 *                 v                                                          │
 *   queued ──claim──> dialing ──180/183──> ringing ──200──> answered ──> completed
 *     │                 │ ^                  │                  │  ├───> acknowledged (keypad 1)
 *     │                 │ │                  │                  │  ├───> no_answer (a voicemail, [amd] on_machine = "hangup_retry")
 *     │                 │ │                  │                  │  └───> voicemail (the message left on one: not acknowledged)
 *     │                 │ └─ lease expired ──┴──────────────────┘     (process died: claimed again)
 *     │                 └──────────┴─────────> busy | no_answer | failed   (attempts used up)
 *     │                 └──────────┴─────────> rejected                    (403/404/484/603)
 *     └──────────────── (or at claim) ───────> expired                     (older than calls.max_age_s)
 *   queued | dialing | ringing ─────────────────> cancelled  (its alert was resolved or acknowledged
 *                                                             elsewhere; never cuts an answered call)
 *
 * `queued` is where a retry waits; busy, no_answer and failed are final only when
 * calls.max_attempts is reached (src/calls/retry-policy.ts decides).
 *
 * Every other list of states (SQL included) is derived from the ones below: never write
 * a state set out again elsewhere.
 */
export const CALL_STATES = [
  'queued',
  'dialing',
  'ringing',
  'answered',
  'completed',
  'acknowledged',
  'busy',
  'no_answer',
  'rejected',
  'failed',
  'expired',
  'cancelled',
  'voicemail',
] as const;
export type CallState = (typeof CALL_STATES)[number];

/** The state a claim puts a call in: the first of an attempt. */
export const CLAIMED_STATE = 'dialing' satisfies CallState;

/** States in which a worker holds the call under a lease. */
export const IN_PROGRESS_STATES: readonly CallState[] = ['dialing', 'ringing', 'answered'];

export const FINAL_STATES: readonly CallState[] = ['completed', 'acknowledged', 'busy', 'no_answer', 'rejected', 'failed', 'expired', 'cancelled', 'voicemail'];

/**
 * Final states in which the call ended without reaching anyone who listened, after its last
 * attempt (a busy that will be retried goes back to `queued`). `expired` too: never placed
 * within calls.max_age_s. Not `completed` (answered), not `acknowledged`, not `cancelled`
 * (someone's decision, not a failure). Callbacks' `call.failed`, /metrics and the panel's
 * red badge all read this one set.
 */
export const FAILED_STATES: readonly CallState[] = ['busy', 'no_answer', 'rejected', 'failed', 'expired'];

const ENDED_BEFORE_ANSWER: CallState[] = ['busy', 'no_answer', 'rejected', 'failed', 'queued', 'cancelled'];

const EDGES: Record<CallState, readonly CallState[]> = {
  queued: ['dialing', 'expired', 'cancelled'],
  // dialing → dialing: a lease that ran out is claimed again (a new attempt).
  dialing: ['dialing', 'ringing', 'answered', 'expired', ...ENDED_BEFORE_ANSWER],
  ringing: ['dialing', 'answered', ...ENDED_BEFORE_ANSWER],
  // answered → queued: stopped mid-call by a shutdown or a media failure, tried again.
  // answered → no_answer: a voicemail answered and `[amd] on_machine = "hangup_retry"` (its last attempt);
  // answered → voicemail: the message was left on one (`leave_message`).
  answered: ['dialing', 'completed', 'acknowledged', 'failed', 'queued', 'no_answer', 'voicemail'],
  completed: [],
  acknowledged: [],
  busy: [],
  no_answer: [],
  rejected: [],
  failed: [],
  expired: [],
  cancelled: [],
  voicemail: [],
};

export const canTransition = (from: CallState, to: CallState): boolean => EDGES[from].includes(to);

/**
 * The guard every state change goes through: an edge not drawn above throws
 * IllegalTransitionError (a bug: the caller ends the call `failed`, it never carries on).
 */
export function transition(from: CallState, to: CallState): { from: CallState; to: CallState } {
  if (!canTransition(from, to)) throw new IllegalTransitionError('call', from, to);
  return { from, to };
}

export const isFinal = (s: CallState) => FINAL_STATES.includes(s);
export const isInProgress = (s: CallState) => IN_PROGRESS_STATES.includes(s);

/**
 * Thrown by a state machine (the call's here, an attempt's in src/sip) for an edge its
 * diagram does not draw: a bug, never a condition to carry on from.
 */
export class IllegalTransitionError extends Error {
  override readonly name = 'IllegalTransitionError';
  constructor(
    readonly machine: string,
    readonly from: string,
    readonly to: string,
  ) {
    super(`illegal ${machine} transition ${from} -> ${to}`);
  }
}
