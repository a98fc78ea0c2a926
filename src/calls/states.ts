/**
 * Call states. Only `queued` is named by the interface; the rest belong to the dialer.
 *
 *   queued ──claim──> dialing ──> ringing ──> answered ──> completed | acknowledged
 *     ^                  │           │
 *     └──retry (delay)───┴───────────┴──> busy | no_answer | rejected | failed | expired
 *
 * A claimed call whose lease runs out (the process died) is claimed again as an attempt.
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
] as const;
export type CallState = (typeof CALL_STATES)[number];

/** States in which a worker holds the call under a lease. */
export const IN_PROGRESS_STATES: readonly CallState[] = ['dialing', 'ringing', 'answered'];
