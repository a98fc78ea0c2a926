import type { CallAudio, CallOutcome } from '../../call-model';
import { describeError, type Logger } from '../../log';
import { until } from '../../until';
import type { RtpStreamHandle } from '../rtp/engine';
import { UNDECIDED, type AmdRequest, type AnswerAnalysis, type AnswerVerdict } from './answer-analysis';
import { callLimit } from './call-limit';

export interface MessagePlayerOptions {
  stream: RtpStreamHandle;
  /** The message, already rendering since the INVITE left (place-call.ts). */
  message: () => Promise<CallAudio>;
  acknowledgedAudio: () => Promise<CallAudio>;
  answerDelayMs: number;
  maxCallMs: number;
  hangUpSignal?: AbortSignal;
  /** True once the far end hung up (its BYE); `ended` resolves then too. */
  farEndGone(): boolean;
  ended: Promise<void>;
  log: Logger;
  /**
   * Voicemail detection running on the stream (answer-analysis.ts): the message waits for its
   * verdict. Absent: none, the answer is `unknown`.
   */
  analysis?: { state: AnswerAnalysis; onMachine: AmdRequest['onMachine'] } | null;
  /** What `leave_message` leaves (the alerts once and the voicemail sentence); absent: `message`. */
  voicemailMessage?: () => Promise<CallAudio>;
  /** The verdict, once (UNDECIDED when there was no analysis or the call ended first). */
  onVerdict?: (v: AnswerVerdict) => void;
}

/**
 * What an answered call hears, apart from the SIP state machine (ua/attempt.ts): silence while
 * voicemail detection listens and for calls.answer_delay_ms from the answer (the two run
 * together: docs/telephony.md "Voicemail detection"), then the message; a mailbox gets what
 * `[amd] on_machine` says; keypad `1` plays the confirmation and ends
 * (acknowledged), `2` starts the message again, `3` ends it at once so an escalation passes
 * to its next step (passed). It stops at once when the far end hangs
 * up (INTERRUPTED if the message had not been played once in full yet, else COMPLETED),
 * at calls.max_call_s, or when a stopping appliance says so. It never hangs up: it
 * resolves with what to report and the caller sends BYE.
 */
export interface MessagePlayer {
  /** A keypad digit (RTP telephone-event or SIP INFO): 1, 2 and 3 cut the current playing short. */
  key(digit: string): void;
  /** Resolves once there is nothing more to play. Call once. */
  play(): Promise<CallOutcome>;
}

export const audioFailure = (e: Error): CallOutcome => {
  const code = (e as unknown as { code?: unknown }).code;
  return { code: 'AUDIO', status: null, reason: `audio: ${e.message}`, errorCode: typeof code === 'string' ? code : null };
};

export function createMessagePlayer(o: MessagePlayerOptions): MessagePlayer {
  const pressed: string[] = [];
  const talking = o.stream;
  /** In the codec in use when it starts; the worker converts if a re-INVITE changes it meanwhile. */
  const say = (audio: CallAudio) => {
    const law = talking.codec;
    return talking.play(law === 'PCMU' ? audio.pcmu : audio.pcma, law);
  };

  return {
    key(digit) {
      if (digit !== '1' && digit !== '2' && digit !== '3') return;
      pressed.push(digit);
      talking.interrupt();
    },
    async play() {
      const limit = callLimit(o.maxCallMs, o.hangUpSignal, (why) => {
        o.log.warn({ maxCallMs: o.maxCallMs, why }, 'hanging up before the message ended');
        pressed.length = 0;
        talking.interrupt();
      });
      try {
        return await playUntilDone(limit);
      } finally {
        limit.clear();
      }
    },
  };

  async function playUntilDone(limit: ReturnType<typeof callLimit>): Promise<CallOutcome> {
    const answeredAt = performance.now();
    let verdict = UNDECIDED;
    if (o.analysis) {
      const found = await Promise.race([o.analysis.state.decided, o.ended.then(() => null), limit.reachedAt.then(() => null)]);
      if (found) verdict = found;
    }
    o.onVerdict?.(verdict);
    // Silence while the callee lifts the phone to the ear (calls.answer_delay_ms), counted
    // from the answer: the analysis took its share of it already.
    await until(o.ended, Math.max(0, o.answerDelayMs - (performance.now() - answeredAt)));
    if (verdict.answeredBy === 'machine' && o.analysis?.onMachine === 'hangup_retry' && !o.farEndGone()) {
      return { code: 'NO_ANSWER', status: 487, reason: `a voicemail answered (${verdict.amdReason}): hung up, to be tried again` };
    }
    if (verdict.answeredBy === 'machine' && o.analysis?.onMachine === 'leave_message') return leaveMessage(o.analysis.state, limit);
    // A key pressed during the analysis counts at once (1 acknowledges, 3 passes on); any
    // other just lets the message play.
    if (pressed[0] !== '1' && pressed[0] !== '3') pressed.length = 0;
    let audio: CallAudio | 'reached';
    try {
      audio = await Promise.race([o.message(), limit.reachedAt]);
    } catch (e) {
      o.log.error({ error: describeError(e) }, 'message audio failed');
      return audioFailure(e as Error);
    }
    let acknowledged = false;
    let passed = false;
    /** The message's last frame left at least once: only then can the callee have heard it all. */
    let heardOnce = false;
    /** A key before the message started (during the analysis): acted on before anything plays. */
    let keyFirst = pressed.length > 0;
    while (!o.farEndGone() && audio !== 'reached' && !limit.reached()) {
      const played = keyFirst ? 'stopped' : await say(audio);
      keyFirst = false;
      if (played === 'failed' && !o.farEndGone()) return { code: 'MEDIA', status: null, reason: 'the RTP worker failed during the message' };
      if (played === 'played') heardOnce = true;
      const key = pressed.shift();
      if (o.farEndGone()) break;
      if (key === '1') {
        acknowledged = true;
        const ack = await Promise.race([o.acknowledgedAudio().catch(() => null), limit.reachedAt]);
        if (ack && ack !== 'reached' && !o.farEndGone()) await say(ack);
        break;
      }
      if (key === '3') {
        passed = true;
        break;
      }
      if (key !== '2') break;
    }
    if (acknowledged) return { code: 'ACKNOWLEDGED', status: 200, reason: 'acknowledged by keypad 1' };
    if (passed) return { code: 'PASSED', status: 200, reason: 'passed to the next step by keypad 3' };
    // A hang-up, or a PBX that ended the call (its session timer, a transfer gone wrong),
    // before the end of the first playing: nobody heard the whole message, so try again.
    if (o.farEndGone() && !heardOnce) return { code: 'INTERRUPTED', status: 200, reason: 'far end hung up before the message was played once in full' };
    const cut = limit.reached();
    const reason = o.farEndGone()
      ? 'far end hung up'
      : cut === 'stopping'
        ? 'hung up: the appliance is stopping'
        : cut === 'max_call_s'
          ? `hung up at calls.max_call_s (${o.maxCallMs / 1000} s)`
          : 'message played';
    return { code: 'COMPLETED', status: 200, reason, remoteHangup: o.farEndGone() };
  }

  /**
   * `leave_message`: nothing plays until the mailbox records (its beep ended, or its greeting;
   * at most src/amd MAILBOX_WAIT_MS after the answer), then the message once. A beep that still
   * comes (a box that paused long before it) starts the message again after it, so the
   * recording holds it whole. Keys are a machine's noise here: ignored.
   */
  async function leaveMessage(analysis: AnswerAnalysis, limit: ReturnType<typeof callLimit>): Promise<CallOutcome> {
    const gone = o.ended.then(() => 'gone' as const);
    // Rendered while the greeting plays on.
    const rendering = (o.voicemailMessage ?? o.message)();
    rendering.catch(() => undefined);
    let seen = await Promise.race([analysis.recording(0), gone, limit.reachedAt]);
    let audio: CallAudio | 'reached' | 'gone';
    try {
      audio = typeof seen === 'number' ? await Promise.race([rendering, limit.reachedAt, gone]) : seen;
    } catch (e) {
      o.log.error({ error: describeError(e) }, 'message audio failed');
      return audioFailure(e as Error);
    }
    let left = false;
    while (typeof seen === 'number' && typeof audio !== 'string' && !o.farEndGone() && !limit.reached()) {
      const from = analysis.recordings;
      // A late beep: what played so far went into the greeting's tail; start over after it.
      void analysis.recording(from).then(() => talking.interrupt());
      const played = await say(audio);
      if (played === 'failed' && !o.farEndGone()) return { code: 'MEDIA', status: null, reason: 'the RTP worker failed during the message' };
      if (analysis.recordings > from) {
        seen = analysis.recordings;
        continue;
      }
      left = played === 'played';
      break;
    }
    pressed.length = 0;
    if (!left) {
      if (o.farEndGone()) return { code: 'INTERRUPTED', status: 200, reason: 'the voicemail hung up before the message was left in full' };
      return { code: 'COMPLETED', status: 200, reason: 'hung up before the message was left on the voicemail', remoteHangup: false };
    }
    return { code: 'VOICEMAIL', status: 200, reason: 'message left on a voicemail' };
  }
}
