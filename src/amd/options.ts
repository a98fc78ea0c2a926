/**
 * The `[amd]` timings and their defaults (docs/telephony.md "Voicemail detection"), in
 * milliseconds. They are Asterisk app_amd's (apps/app_amd.c, amd.conf), except `maxWords`,
 * 3 here: a person answering "Alo, kim arıyor?" says three.
 */
export interface AmdTimings {
  /** Nobody spoke this long after the answer: `unknown`, `initial_silence`. */
  initialSilenceMs: number;
  /** Speech in the greeting adds up to this: `machine`, `long_greeting`. */
  greetingMs: number;
  /** Silence this long after speech ends a greeting: a short one is a person's (`short_greeting`). */
  afterGreetingSilenceMs: number;
  /** No decision after this long: `unknown`, `timeout`. */
  totalAnalysisMs: number;
  /** Voice this long, in one run, is a word. */
  minWordMs: number;
  /** Silence this long ends a word. */
  betweenWordsSilenceMs: number;
  /** More words than this: `machine`, `max_words`. */
  maxWords: number;
}

export const AMD_DEFAULTS: AmdTimings = {
  initialSilenceMs: 2500,
  greetingMs: 1500,
  afterGreetingSilenceMs: 800,
  totalAnalysisMs: 5000,
  minWordMs: 100,
  betweenWordsSilenceMs: 50,
  maxWords: 3,
};

/**
 * A machine's greeting is waited for (beep, or its end) at most this long after the answer
 * (docs/telephony.md "Voicemail detection": at most 20 s in all); then the message is left anyway.
 */
export const MAILBOX_WAIT_MS = 20_000;

/**
 * A frame whose mean absolute sample is below this is silence: Asterisk's default
 * `silence_threshold` (dsp.conf, 256 on a 16-bit scale, about −42 dBFS).
 */
export const SILENCE_THRESHOLD = 256;

/**
 * Voiced frames (voicing.ts) a run of loud frames needs before it counts as speech: two 20 ms
 * frames, so one frame of noise that happens to correlate does not make a breath a word.
 */
export const VOICED_RUN_MS = 40;

/**
 * A beep this soon after the mailbox was taken to record (its greeting's end) is still its
 * beep: some boxes pause a second or more between greeting and beep. The message starts again
 * after it.
 */
export const LATE_BEEP_MS = 2500;
