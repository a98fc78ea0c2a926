import * as z from 'zod';

/** calls.max_call_s when nothing sets it (also the trunk's default for a dial without one). */
export const DEFAULT_MAX_CALL_S = 300;

/** How a queued call is placed and what it says (issues: speech, telephony). */
export const callsSection = z
  .object({
    /** Spoken before the message; empty string: the language's default intro. */
    intro: z.string().default(''),
    /** How many times the message is spoken in one call. */
    repeat: z.number().int().min(1).max(5).default(2),
    /** Pause after the 200 OK before speaking, so the first words are not clipped. */
    answer_delay_ms: z.number().int().min(0).max(10_000).default(800),
    /** Ring this long, then CANCEL (counts as no answer). */
    ring_timeout_s: z.number().int().min(5).max(600).default(45),
    /** Waits before the 2nd, 3rd, … attempt after busy, no answer or a failure. */
    retry_delays_s: z.array(z.number().int().min(0)).default([60, 180]),
    /** Attempts in all, the first included. */
    max_attempts: z.number().int().min(1).max(20).default(3),
    /** Calls in progress at once (PBX channels). */
    max_concurrent: z.number().int().min(1).max(1000).default(10),
    /**
     * Longest a call may last once answered (keypad 2 repeats, a far end that never hangs
     * up); then we hang up. Also bounds an attempt, so a stuck one cannot hold a channel.
     */
    max_call_s: z.number().int().min(10).max(3600).default(DEFAULT_MAX_CALL_S),
    /** A call not placed within this long after it was queued expires instead of ringing. */
    max_age_s: z.number().int().min(60).default(3600),
    /**
     * How long a claimed call stays ours without a heartbeat (renewed every third of it).
     * After a crash, a call in progress is dialed again once this (plus ring_timeout_s for
     * one that was still ringing) ran out. Formerly `sip.call_lease_s`.
     */
    lease_s: z.number().int().min(1).max(3600).default(30),
    /**
     * On SIGTERM, answered calls may finish for this long before they are hung up (unanswered
     * ones go back to the queue at once); the process exits within it + 5 s (docs/operations.md
     * "Configuration").
     */
    shutdown_grace_s: z.number().int().min(0).max(3600).default(60),
    /** A number is called at most once per this long; alerts waiting meanwhile are bundled. 0: no gap. */
    per_number_gap_s: z.number().int().min(0).max(86_400).default(60),
    /** A number is called at most this many times an hour (0: no limit). */
    per_number_per_hour: z.number().int().min(0).max(3600).default(10),
  })
  .strict();
