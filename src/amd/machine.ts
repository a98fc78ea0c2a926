import { IllegalTransitionError, type AmdReason, type AnsweredBy } from '../call-model';

/**
 * Whether a person or a mailbox answered, decided from what the callee's side sounds like
 * (detector.ts turns 20 ms frames into these events). The timings are Asterisk app_amd's
 * (apps/app_amd.c `isAnsweringMachine`): words are runs of voice, a greeting that talks long
 * or says many words is a machine's, a short one followed by silence a person's.
 *
 *                  ┌──────────── key ─────────────────────────> human (keypress)
 *                  │       ┌──── greeting_end (gap only) ─────> human (short_greeting)
 *   initial_silence ──speech──> word <──speech── gap
 *        │  │                   │  └───pause────> │
 *        │  │                   ├─ long_greeting / too_many_words ─> greeting ──greeting_end / deadline──> recording
 *        │  │                   │                                      │  ^ (gap: long_greeting too)
 *        │  │                   │                                     beep
 *        │  └──── beep (any analysing state) ─────────────────────────> beep ──beep_end / deadline──> recording
 *        └─ silence_limit / timeout (timeout: word, gap too) ─────────> unknown
 *                                                               recording ──beep (late)──> beep
 *
 * `human` and `unknown` are final. `greeting` and `beep` are a decided machine whose mailbox
 * does not record yet: it does from the end of its beep (or, with none, from the end of its
 * greeting), where a message left starts. A beep that still comes shortly after (a box that
 * pauses long before it) moves `recording` back to `beep`: the message starts again after it.
 */
export const AMD_STATES = ['initial_silence', 'word', 'gap', 'human', 'unknown', 'greeting', 'beep', 'recording'] as const;
export type AmdState = (typeof AMD_STATES)[number];

export const AMD_EVENTS = [
  /** Voice for min_word_ms in one run: a word starts. */
  'speech',
  /** Silence for between_words_silence_ms inside a word: the word ended. */
  'pause',
  /** Silence for after_greeting_silence_ms after speech. */
  'greeting_end',
  /** Voice in the greeting added up to greeting_ms. */
  'long_greeting',
  /** More than max_words words. */
  'too_many_words',
  /** Nobody spoke for initial_silence_ms. */
  'silence_limit',
  /** total_analysis_ms passed undecided (counted in frames, or on the clock when RTP stops). */
  'timeout',
  /** A keypad digit (RFC 4733, INFO or in-band tones). */
  'key',
  /** A steady tone for the beep's length (beep.ts). */
  'beep',
  /** The tone stopped. */
  'beep_end',
  /** MAILBOX_WAIT_MS since the answer: leave the message now. */
  'deadline',
] as const;
export type AmdEvent = (typeof AMD_EVENTS)[number];

const ANALYSING = ['initial_silence', 'word', 'gap'] as const;
const FINAL_IGNORES = Object.fromEntries(AMD_EVENTS.map((e) => [e, 'ignore'])) as Record<AmdEvent, 'ignore'>;

/**
 * The edge each event takes from each state, or `ignore` where it may arrive and changes
 * nothing (a key pressed on a mailbox's greeting, the analysis clock running out after a
 * machine was decided, anything after a final state). Anything not listed is a bug: `on` throws.
 */
export const AMD_REACTIONS: Record<AmdState, Partial<Record<AmdEvent, AmdState | 'ignore'>>> = {
  initial_silence: { speech: 'word', silence_limit: 'unknown', timeout: 'unknown', key: 'human', beep: 'beep' },
  word: { pause: 'gap', long_greeting: 'greeting', too_many_words: 'greeting', timeout: 'unknown', key: 'human', beep: 'beep' },
  gap: { speech: 'word', greeting_end: 'human', long_greeting: 'greeting', timeout: 'unknown', key: 'human', beep: 'beep' },
  greeting: { greeting_end: 'recording', beep: 'beep', deadline: 'recording', key: 'ignore', timeout: 'ignore' },
  beep: { beep_end: 'recording', deadline: 'recording', key: 'ignore', timeout: 'ignore', beep: 'ignore' },
  human: FINAL_IGNORES,
  unknown: FINAL_IGNORES,
  // A beep soon after a greeting's end (a box that pauses longer than after_greeting_silence_ms
  // before its beep): the mailbox records from this beep's end instead (detector.ts LATE_BEEP_MS).
  recording: { ...FINAL_IGNORES, beep: 'beep' },
};


/** The verdict each event ending the analysis gives (docs/telephony.md "Voicemail detection"). */
const VERDICTS: Partial<Record<AmdEvent, { answeredBy: AnsweredBy; reason: AmdReason }>> = {
  key: { answeredBy: 'human', reason: 'keypress' },
  greeting_end: { answeredBy: 'human', reason: 'short_greeting' },
  silence_limit: { answeredBy: 'unknown', reason: 'initial_silence' },
  timeout: { answeredBy: 'unknown', reason: 'timeout' },
  long_greeting: { answeredBy: 'machine', reason: 'long_greeting' },
  too_many_words: { answeredBy: 'machine', reason: 'max_words' },
  beep: { answeredBy: 'machine', reason: 'beep' },
};

/** The verdict an edge out of the analysis gives; null for any other edge. */
export function verdictOf(from: AmdState, event: AmdEvent): { answeredBy: AnsweredBy; reason: AmdReason } | null {
  if (!(ANALYSING as readonly string[]).includes(from)) return null;
  const v = VERDICTS[event];
  return v ? { ...v } : null;
}

export const isAnalysing = (s: AmdState) => (ANALYSING as readonly string[]).includes(s);

export interface AmdMachine {
  readonly state: AmdState;
  /** True when the event moved the machine, false when the table says to ignore it; throws on anything unlisted. */
  on(event: AmdEvent): boolean;
}

export function createAmdMachine(): AmdMachine {
  let state: AmdState = 'initial_silence';
  return {
    get state() {
      return state;
    },
    on(event) {
      const to = AMD_REACTIONS[state][event];
      if (to === undefined) throw new IllegalTransitionError('amd', state, event);
      if (to === 'ignore') return false;
      state = to;
      return true;
    },
  };
}
