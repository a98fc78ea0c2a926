/**
 * Who answered an attempt and why the analysis thought so (docs/telephony.md "Voicemail
 * detection"; src/amd decides): the words the call JSON, events, callbacks, the panel and
 * /metrics use.
 */
export const ANSWERED_BY = ['human', 'machine', 'unknown'] as const;
export type AnsweredBy = (typeof ANSWERED_BY)[number];
export const AMD_REASONS = ['short_greeting', 'long_greeting', 'beep', 'initial_silence', 'max_words', 'timeout', 'keypress'] as const;
export type AmdReason = (typeof AMD_REASONS)[number];
