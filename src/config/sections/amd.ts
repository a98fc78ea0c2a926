import * as z from 'zod';

/**
 * docs/telephony.md "Voicemail detection": every answered attempt's first seconds are analysed
 * (src/amd) to tell a person from a mailbox. Asterisk app_amd's timings, in milliseconds.
 */
export const amdSection = z
  .object({
    /** Off: every answer is `unknown` and the message plays as it always did. */
    enabled: z.boolean().default(true),
    /** Nobody spoke this long after the answer: `unknown` (the message plays). */
    initial_silence_ms: z.number().int().min(500).max(10_000).default(2500),
    /** Speech in the greeting adds up to this: a machine (`long_greeting`). */
    greeting_ms: z.number().int().min(300).max(10_000).default(1500),
    /** Silence this long after speech ends a greeting (a short one is a person's). */
    after_greeting_silence_ms: z.number().int().min(200).max(5000).default(800),
    /** No decision within this: `unknown` (`timeout`). */
    total_analysis_ms: z.number().int().min(1000).max(20_000).default(5000),
    /** Voice this long in one run is a word. */
    min_word_ms: z.number().int().min(20).max(1000).default(100),
    /** Silence this long ends a word. */
    between_words_silence_ms: z.number().int().min(20).max(1000).default(50),
    /** More words than this in the greeting: a machine (`max_words`). */
    max_words: z.number().int().min(1).max(20).default(3),
    /**
     * A mailbox answered: `leave_message` (after its beep, or its greeting's end, the message
     * once and a sentence saying it was left on a voicemail; the attempt ends `voicemail`),
     * `hangup_retry` (hang up, counted as no answer), `ignore` (play as to a person).
     */
    on_machine: z.enum(['leave_message', 'hangup_retry', 'ignore']).default('leave_message'),
  })
  .strict();

export type AmdConfig = z.infer<typeof amdSection>;
