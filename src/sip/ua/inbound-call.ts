import { IllegalTransitionError } from '../../call-model';
import type { Logger } from '../../log';

/**
 * One call to the appliance (the voice desk), from the INVITE to the end of the dialog
 * (ua/answer-call.ts drives it). Shaped like the outbound attempt (ua/attempt.ts): every change
 * is an event (`on`) whose edge INBOUND_REACTIONS names, checked against the drawing below
 * (inboundEdge) and logged.
 *
 *                                                  ┌─ prompt_end ───┬──────────────┐
 *                                                  v                │              │
 *   offered ──accepted──> answering ──media_up──> up ──prompt──> playing ──key──> cut
 *      │                      │                   ^│
 *      │ refused              │ no_media          │└──── refer ────> transferring
 *      v                      v                   └───── transfer_done ───┘
 *    ended                  ended
 *
 *   up, playing, cut, transferring ──hang_up──> hanging_up ──bye_done──> ended
 *   every state but ended ──terminated──> ended;  all but offered and ended ──far_end_bye──> ended
 *
 * `answering` is our 200 sent, the far end's media not yet known: an INVITE without SDP got
 * our offer in the 200 and its answer comes with the ACK (RFC 3264 §2). `cut` is a prompt cut
 * short by a key (barge-in). `terminated` is sip.js ending the session (the ACK never came, an
 * answer in it we cannot use, our BYE sent, the appliance stopping).
 */
export const INBOUND_STATES = ['offered', 'answering', 'up', 'playing', 'cut', 'transferring', 'hanging_up', 'ended'] as const;
export type InboundState = (typeof INBOUND_STATES)[number];

export const INBOUND_EDGES: Record<InboundState, readonly InboundState[]> = {
  offered: ['answering', 'ended'],
  answering: ['up', 'ended'],
  up: ['playing', 'transferring', 'hanging_up', 'ended'],
  playing: ['up', 'cut', 'hanging_up', 'ended'],
  cut: ['up', 'hanging_up', 'ended'],
  transferring: ['up', 'hanging_up', 'ended'],
  hanging_up: ['ended'],
  ended: [],
};

/** What happens to an inbound call, as answer-call.ts feeds it from sip.js, the RTP stream, the desk and itself. */
export const INBOUND_EVENTS = [
  /** Our 200 to the INVITE went out. */
  'accepted',
  /** No 200: an offer we cannot take (488), or the 200 could not be sent. */
  'refused',
  /** The far end's media is known (in the INVITE's offer, or the answer in the ACK): the stream starts. */
  'media_up',
  /** No usable media by the ACK: hung up unheard. */
  'no_media',
  /** The desk plays a prompt. */
  'prompt',
  /** The prompt ended (played, cut, or the stream gone). */
  'prompt_end',
  /** A key pressed (RFC 4733, SIP INFO or tones): it cuts a prompt short. */
  'key',
  /** Our REFER (a blind transfer) goes out. */
  'refer',
  /** The transfer's outcome is known (NOTIFY, refusal, or no word in time). */
  'transfer_done',
  /** We end the call (the desk is done, voice_desk.max_call_s, the session lost). */
  'hang_up',
  /** Our BYE got its answer (or gave up). */
  'bye_done',
  /** The caller sent BYE. */
  'far_end_bye',
  /** sip.js ended the session. */
  'terminated',
] as const;
export type InboundEvent = (typeof INBOUND_EVENTS)[number];

/** What the desk and the stream may still send once the call is ending: nothing moves. */
const ENDING_IGNORES = { prompt: 'ignore', prompt_end: 'ignore', key: 'ignore', refer: 'ignore', transfer_done: 'ignore', hang_up: 'ignore' } as const;

/**
 * The edge each event takes from each state, or `ignore` where it may arrive and changes
 * nothing: a key while nothing plays (it waits in the queue for nextKey), a second key on a
 * prompt already cut, the caller's BYE crossing ours, sip.js's end after a BYE, a hang-up asked
 * for twice, the desk's prompt, REFER or the transfer's end once the call is ending. Anything
 * not listed is a bug: `on` logs it and throws.
 */
export const INBOUND_REACTIONS: Record<InboundState, Partial<Record<InboundEvent, InboundState | 'ignore'>>> = {
  offered: { accepted: 'answering', refused: 'ended', terminated: 'ended' },
  answering: { media_up: 'up', no_media: 'ended', key: 'ignore', far_end_bye: 'ended', terminated: 'ended' },
  up: { prompt: 'playing', key: 'ignore', refer: 'transferring', hang_up: 'hanging_up', far_end_bye: 'ended', terminated: 'ended' },
  playing: { key: 'cut', prompt_end: 'up', hang_up: 'hanging_up', far_end_bye: 'ended', terminated: 'ended' },
  cut: { key: 'ignore', prompt_end: 'up', hang_up: 'hanging_up', far_end_bye: 'ended', terminated: 'ended' },
  transferring: { key: 'ignore', transfer_done: 'up', hang_up: 'hanging_up', far_end_bye: 'ended', terminated: 'ended' },
  hanging_up: { ...ENDING_IGNORES, bye_done: 'ended', far_end_bye: 'ended', terminated: 'ended' },
  // accepted, refused, media_up and no_media here: the session ended while we were answering.
  ended: { ...ENDING_IGNORES, accepted: 'ignore', refused: 'ignore', media_up: 'ignore', no_media: 'ignore', bye_done: 'ignore', far_end_bye: 'ignore', terminated: 'ignore' },
};

/** The events whose `why` says why the call ended: the first of them to move the call is endedBy. */
const ENDING: readonly InboundEvent[] = ['hang_up', 'far_end_bye', 'terminated'];

export interface InboundCallMachine {
  readonly state: InboundState;
  /**
   * Why the call ended or is ending: the `why` of the first hang_up, far_end_bye or terminated
   * that moved it (our reason, `caller hung up`, `ended by the appliance`); null before.
   */
  readonly endedBy: string | null;
  in(...states: InboundState[]): boolean;
  /**
   * Feeds an event: true when it moved the call (its edge logged with `why`), false when
   * INBOUND_REACTIONS says to ignore it here. An event not listed for the state is logged (one
   * line naming state and event) and throws IllegalTransitionError; the state stays.
   */
  on(event: InboundEvent, why: string): boolean;
}

/** `from` -> `to` is a drawn edge: anything else throws IllegalTransitionError. */
export function inboundEdge(from: InboundState, to: InboundState): void {
  if (!INBOUND_EDGES[from].includes(to)) throw new IllegalTransitionError('inbound call', from, to);
}

/** `log` should carry the SIP Call-ID (answer-call.ts makes a child logger with it). */
export function createInboundCallMachine(log: Logger): InboundCallMachine {
  let state: InboundState = 'offered';
  let endedBy: string | null = null;
  return {
    get state() {
      return state;
    },
    get endedBy() {
      return endedBy;
    },
    in: (...states) => states.includes(state),
    on(event, why) {
      const to = INBOUND_REACTIONS[state][event];
      if (to === undefined) {
        log.error({ state, event, why }, 'illegal inbound call event');
        throw new IllegalTransitionError('inbound call', state, event);
      }
      if (to === 'ignore') return false;
      inboundEdge(state, to);
      log.debug({ from: state, to, why, event }, 'inbound call state');
      if (ENDING.includes(event)) endedBy ??= why;
      state = to;
      return true;
    },
  };
}
