import type { CallAudio, CallOutcome } from '../../call-model';
import { describeError, type Logger } from '../../log';
import { until } from '../../until';
import type { RtpStreamHandle } from '../rtp/engine';
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
}

/**
 * What an answered call hears, apart from the SIP state machine (ua/attempt.ts): silence for
 * calls.answer_delay_ms, then the message; keypad `1` plays the confirmation and ends
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
    // Silence while the callee lifts the phone to the ear (calls.answer_delay_ms).
    await until(o.ended, o.answerDelayMs);
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
    while (!o.farEndGone() && audio !== 'reached' && !limit.reached()) {
      const played = await say(audio);
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
}
