import { IllegalTransitionError } from '../../call-model';
import type { Logger } from '../../log';

/**
 * One call attempt, from our INVITE to the end of the dialog (ua/place-call.ts drives it).
 * Modelled on SIP.js's own Session `stateTransition()` (src/api/session.ts): every change
 * goes through `transition()`, which throws on an edge not drawn here and logs each edge.
 *
 *         ┌──────────────────── 200 ────────────────────┐
 *         │                                             v
 *   inviting ──180..183─> ringing ──200──> answered ──media up──> playing ──done──> hanging_up ──> ended
 *     │ │                   │ │              │  │                    │                  ^            ^
 *     │ │                   │ │              │  └── no usable SDP ───┼──────────────────┘            │
 *     │ │                   │ │              └──────── far end's BYE ┴───────────────────────────────┤
 *     │ └───────────────────┼─┴─ ring timeout / shutdown / no audio ──> cancelling ──────────────────┤
 *     └─────────────────────┴─── final non-2xx, or the INVITE could not be sent ─────────────────────┘
 *
 * `done` is the message player's end (played, keypad 1, calls.max_call_s, a stopping
 * appliance, a media or audio failure): we send BYE. A 200 that crosses our CANCEL stays in
 * `cancelling` (sip.js ACKs it and sends BYE itself, RFC 3261 §9.1, §15). A far-end BYE in
 * `hanging_up` (crossing BYEs) or `cancelling` is answered and changes nothing.
 * The only way from `playing` to `ended` is therefore the far end's BYE.
 */
export const ATTEMPT_STATES = ['inviting', 'ringing', 'answered', 'playing', 'hanging_up', 'cancelling', 'ended'] as const;
export type AttemptState = (typeof ATTEMPT_STATES)[number];

export const ATTEMPT_EDGES: Record<AttemptState, readonly AttemptState[]> = {
  inviting: ['ringing', 'answered', 'cancelling', 'ended'],
  ringing: ['answered', 'cancelling', 'ended'],
  answered: ['playing', 'hanging_up', 'ended'],
  playing: ['hanging_up', 'ended'],
  hanging_up: ['ended'],
  cancelling: ['ended'],
  ended: [],
};

export interface Attempt {
  readonly state: AttemptState;
  /** True while in one of `states`. */
  in(...states: AttemptState[]): boolean;
  /**
   * Moves to `to`, logging the edge and `why`. MUST be a drawn edge: anything else throws
   * IllegalTransitionError and leaves the state as it was (a bug, never carried on from).
   */
  transition(to: AttemptState, why: string): void;
}

/** `log` should carry the SIP Call-ID (place-call.ts makes a child logger with it). */
export function createAttempt(log: Logger): Attempt {
  let state: AttemptState = 'inviting';
  return {
    get state() {
      return state;
    },
    in: (...states) => states.includes(state),
    transition(to, why) {
      if (!ATTEMPT_EDGES[state].includes(to)) throw new IllegalTransitionError('attempt', state, to);
      log.debug({ from: state, to, why }, 'attempt state');
      state = to;
    },
  };
}
