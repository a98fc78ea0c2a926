import type { AmdUpdate, AmdTimings } from '../../amd';
import type { AmdReason, AnsweredBy } from '../../call-model';

/** What the dial asks of voicemail detection (docs/telephony.md "Voicemail detection"). */
export interface AmdRequest {
  timings: AmdTimings;
  /** `[amd] on_machine`. */
  onMachine: 'leave_message' | 'hangup_retry' | 'ignore';
}

export interface AnswerVerdict {
  answeredBy: AnsweredBy;
  amdReason: AmdReason | null;
}

/** Analysis off, or a call that ended before it decided: treated as a person. */
export const UNDECIDED: AnswerVerdict = { answeredBy: 'unknown', amdReason: null };

/**
 * The main thread's view of one call's analysis, which runs in the RTP worker (rtp/stream.ts,
 * src/amd): the verdict once, and each time a machine's mailbox starts recording (again, after
 * a late beep: the message left starts over from there).
 */
export interface AnswerAnalysis {
  /** Resolves once, with the verdict. */
  readonly decided: Promise<AnswerVerdict>;
  /** Resolves at the next `recording` after `seen` of them (0: the first). */
  recording(seen: number): Promise<number>;
  /** How many times the mailbox was taken to record so far. */
  readonly recordings: number;
  /** Feeds what the worker reported. */
  update(u: AmdUpdate): void;
}

export function createAnswerAnalysis(): AnswerAnalysis {
  let decide!: (v: AnswerVerdict) => void;
  const decided = new Promise<AnswerVerdict>((resolve) => (decide = resolve));
  let recordings = 0;
  let waiting: { after: number; resolve: (n: number) => void }[] = [];
  return {
    decided,
    get recordings() {
      return recordings;
    },
    recording(seen) {
      if (recordings > seen) return Promise.resolve(recordings);
      return new Promise((resolve) => waiting.push({ after: seen, resolve }));
    },
    update(u) {
      if (u.kind === 'decided') return decide({ answeredBy: u.verdict.answeredBy, amdReason: u.verdict.reason });
      recordings++;
      const ready = waiting.filter((w) => recordings > w.after);
      waiting = waiting.filter((w) => recordings <= w.after);
      for (const w of ready) w.resolve(recordings);
    },
  };
}
