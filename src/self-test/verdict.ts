import { describeOutcome, type CallOutcome } from '../call-model';
import type { MediaReport } from '../sip';

export type SelfTestExpect = 'answer' | 'echo';

/** docs/telephony.md "Voice-path self-test": at least this share of our frames must come back, in order. */
export const ECHO_MIN_RATIO = 0.8;

export interface SelfTestVerdict {
  ok: boolean;
  reason: string;
  /** Our frames received back in order / frames of the signal; null unless `expect = "echo"` and answered. */
  echoRatio: number | null;
}

const ANSWERED = new Set<CallOutcome['code']>(['COMPLETED', 'INTERRUPTED', 'ACKNOWLEDGED', 'PASSED']);

const pct = (r: number) => `${Math.floor(r * 1000) / 10} %`;

/**
 * Whether one self-test call passed: answered, our signal's `frames` all left as RTP (the
 * far end did not hang up or hold it short), and with `echo` at least ECHO_MIN_RATIO of them
 * came back in order. The reason says what failed in words an operator acts on.
 */
export function judge(outcome: CallOutcome, report: MediaReport | null, expect: SelfTestExpect, frames: number): SelfTestVerdict {
  if (!ANSWERED.has(outcome.code)) {
    return { ok: false, reason: `not answered: ${describeOutcome(outcome)}`, echoRatio: null };
  }
  if (!report) return { ok: false, reason: 'answered, but no media report came from the RTP worker', echoRatio: null };
  const sent = report.framesPlayed;
  const ratio = expect === 'echo' ? Math.min(1, (report.echo?.returned ?? 0) / frames) : null;
  if (sent < frames) {
    const why = outcome.code === 'INTERRUPTED' ? 'the far end hung up' : outcome.reason;
    return { ok: false, reason: `answered, but our RTP flowed for only ${(sent * 20) / 1000} s of ${(frames * 20) / 1000} s (${why})`, echoRatio: ratio };
  }
  if (ratio === null) return { ok: true, reason: `answered; our RTP flowed for ${(frames * 20) / 1000} s`, echoRatio: null };
  const back = report.echo?.returned ?? 0;
  if (ratio >= ECHO_MIN_RATIO) return { ok: true, reason: `echo: ${back} of ${frames} frames came back in order (${pct(ratio)})`, echoRatio: ratio };
  if (back === 0) {
    const heard = report.packetsReceived === 0 ? 'no RTP at all came back' : `${report.packetsReceived} RTP packets came back, none of them ours`;
    return { ok: false, reason: `no echo: ${heard} (${frames} frames sent)`, echoRatio: 0 };
  }
  return { ok: false, reason: `echo too weak: ${back} of ${frames} frames came back in order (${pct(ratio)}, at least ${ECHO_MIN_RATIO * 100} % needed)`, echoRatio: ratio };
}
