import * as z from 'zod';
import { diallableOrEmpty } from './diallable';

/**
 * The voice-path self-test (docs/telephony.md "Voice-path self-test"): a call to a PBX number now
 * and then, through each trunk, that checks the answer, our RTP and, with `expect = "echo"`, our
 * audio coming back.
 */
export const selfTestSection = z
  .object({
    /** What to call; empty: no self-test. sip.dial_prefix goes before it unless it is 3–6 digits or holds * or # (ua/telephone.ts). */
    number: diallableOrEmpty,
    /** Seconds between scheduled self-tests of each trunk; 0: only `voice-alert self-test run`. */
    interval_s: z.number().int().min(0).max(7 * 86_400).default(3600),
    /** Only this trunk (a name in sip.trunks, or sip.name); empty: each trunk in turn. */
    trunk: z.string().default(''),
    /** How long our signal plays once answered. */
    duration_s: z.number().int().min(1).max(60).default(5),
    /** `answer`: answered and our RTP flowed for duration_s; `echo`: also ≥ 80 % of our frames came back, in order. */
    expect: z.enum(['answer', 'echo']).default('answer'),
  })
  .strict();

export type SelfTestConfig = z.infer<typeof selfTestSection>;
