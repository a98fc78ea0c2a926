import { IllegalTransitionError } from '../../call-model';
import type { Logger } from '../../log';

/**
 * One call attempt, from our INVITE to the end of the dialog (ua/place-call.ts drives it).
 * Modelled on SIP.js's own Session `stateTransition()` (src/api/session.ts): every change
 * is an event (`on`) whose edge ATTEMPT_REACTIONS names; the edge is checked against the
 * drawing (attemptEdge: it throws on an edge not drawn here) and logged.
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

/**
 * What happens to an attempt, as place-call.ts feeds it from sip.js's callbacks, its timers and
 * its own steps. Each is read as the machine's next edge (ATTEMPT_REACTIONS), so the code that
 * sends CANCEL, BYE or reports progress runs only when the event moved the attempt.
 */
export const ATTEMPT_EVENTS = [
  /** 180–183 to our INVITE. */
  'progress',
  /** 2xx to our INVITE. */
  'accepted',
  /** A final 3xx–6xx to our INVITE. */
  'refused',
  /** The INVITE could not be sent (transport error). */
  'not_sent',
  /** Ring timeout, a stopping appliance, or no audio to play: we CANCEL. */
  'cancel',
  /** Our CANCEL's transaction is over. */
  'cancel_done',
  /** The answer's media is up: the message plays. */
  'media_up',
  /** We end the call: played, the session lost, or an answer we cannot use. */
  'hang_up',
  /** Our BYE got its answer (or gave up). */
  'bye_done',
  /** The far end sent BYE. */
  'far_end_bye',
] as const;
export type AttemptEvent = (typeof ATTEMPT_EVENTS)[number];

/**
 * The edge each event takes from each state, or `ignore` where it may arrive and changes
 * nothing: a 180 reordered after the 200, the 487 and the crossing 200 to our CANCEL (sip.js
 * ACKs and BYEs that one itself, RFC 3261 §9.1), crossing BYEs, a cancel or a hang-up asked for
 * twice. Anything not listed is a bug: `on` throws.
 */
export const ATTEMPT_REACTIONS: Record<AttemptState, Partial<Record<AttemptEvent, AttemptState | 'ignore'>>> = {
  inviting: { progress: 'ringing', accepted: 'answered', refused: 'ended', not_sent: 'ended', cancel: 'cancelling' },
  ringing: { progress: 'ignore', accepted: 'answered', refused: 'ended', not_sent: 'ended', cancel: 'cancelling' },
  answered: { progress: 'ignore', not_sent: 'ignore', cancel: 'ignore', media_up: 'playing', hang_up: 'hanging_up', far_end_bye: 'ended' },
  playing: { progress: 'ignore', not_sent: 'ignore', cancel: 'ignore', hang_up: 'hanging_up', far_end_bye: 'ended' },
  hanging_up: { progress: 'ignore', not_sent: 'ignore', cancel: 'ignore', media_up: 'ignore', hang_up: 'ignore', far_end_bye: 'ignore', bye_done: 'ended' },
  cancelling: { progress: 'ignore', accepted: 'ignore', refused: 'ignore', not_sent: 'ignore', cancel: 'ignore', far_end_bye: 'ignore', cancel_done: 'ended' },
  ended: { progress: 'ignore', refused: 'ignore', not_sent: 'ignore', cancel: 'ignore', cancel_done: 'ignore', media_up: 'ignore', hang_up: 'ignore', far_end_bye: 'ignore' },
};

export interface Attempt {
  readonly state: AttemptState;
  /** True while in one of `states`. */
  in(...states: AttemptState[]): boolean;
  /**
   * Feeds an event: true when it moved the attempt (its edge logged with `why`), false when
   * ATTEMPT_REACTIONS says to ignore it here. An event not listed for the state throws
   * IllegalTransitionError and leaves the state as it was.
   */
  on(event: AttemptEvent, why: string): boolean;
}

/**
 * `from` -> `to` is a drawn edge: anything else throws IllegalTransitionError (a bug, never
 * carried on from). The one check every move of an attempt passes.
 */
export function attemptEdge(from: AttemptState, to: AttemptState): void {
  if (!ATTEMPT_EDGES[from].includes(to)) throw new IllegalTransitionError('attempt', from, to);
}

/** `log` should carry the SIP Call-ID (place-call.ts makes a child logger with it). */
export function createAttempt(log: Logger): Attempt {
  let state: AttemptState = 'inviting';
  return {
    get state() {
      return state;
    },
    in: (...states) => states.includes(state),
    on(event, why) {
      const to = ATTEMPT_REACTIONS[state][event];
      if (to === undefined) throw new IllegalTransitionError('attempt', state, event);
      if (to === 'ignore') return false;
      attemptEdge(state, to);
      log.debug({ from: state, to, why, event }, 'attempt state');
      state = to;
      return true;
    },
  };
}
