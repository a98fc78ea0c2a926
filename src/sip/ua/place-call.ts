import { Inviter, SessionState, type URI, type UserAgent } from 'sip.js';
import type { CallAudio } from '../../call-model';
import type { Logger } from '../../log';
import { until } from '../../until';
import type { CallOutcome, CallProgress } from '../../call-model';
import { infoDigit } from '../rtp/dtmf';
import type { MediaHandler } from './media-handler';
import type { RtpStreamHandle } from '../rtp/engine';

export interface PlaceCallOptions {
  /** Called once, right after the INVITE left: the speech renders while the phone rings. */
  audio: () => Promise<CallAudio>;
  acknowledgedAudio: () => Promise<CallAudio>;
  ringTimeoutMs: number;
  answerDelayMs: number;
  maxCallMs: number;
  silenceMs: number;
  t1Ms: number;
  progress: CallProgress;
  signal?: AbortSignal;
  hangUpSignal?: AbortSignal;
  log: Logger;
  onPacketSent?: (callId: string, at: number) => void;
}

const audioFailure = (e: Error): CallOutcome => {
  const code = (e as unknown as { code?: unknown }).code;
  return { code: 'AUDIO', status: null, reason: `audio: ${e.message}`, errorCode: typeof code === 'string' ? code : null };
};
const lawOf = (audio: CallAudio, stream: RtpStreamHandle) => (stream.codec === 'PCMU' ? audio.pcmu : audio.pcma);

/**
 * One attempt: INVITE, ring, and once answered (never on 183 early media) the message
 * after calls.answer_delay_ms, then BYE. Keypad `1` plays the confirmation and hangs up
 * (acknowledged), `2` starts the message again. A BYE from the far end stops at once, and
 * so does calls.max_call_s after the answer (no key, no far end keeps a channel forever).
 * Resolves with what happened; never throws, never retries.
 */
export async function placeCall(ua: UserAgent, target: URI, o: PlaceCallOptions): Promise<CallOutcome> {
  const inviter = new Inviter(ua, target, { earlyMedia: false });
  const log = o.log.child({ callId: inviter.request.callId, target: target.user });
  const pressed: string[] = [];
  let audioPromise: Promise<CallAudio> | null = null;
  let stream: RtpStreamHandle | null = null;
  let remoteHangup = false;
  let canceled = false;
  let answered = false;
  let ringing = false;

  const onDigit = (digit: string) => {
    log.info({ digit }, 'keypad');
    o.progress.digit(digit);
    if (digit === '1' || digit === '2') {
      pressed.push(digit);
      stream?.interrupt();
    }
  };
  inviter.delegate = {
    onBye(bye) {
      remoteHangup = true;
      void bye.accept().catch(() => undefined);
    },
    onInfo(info) {
      void info.accept().catch(() => undefined);
      const d = infoDigit(info.request.getHeader('content-type') ?? '', info.request.body ?? '');
      if (d) onDigit(d);
    },
  };
  const terminated = new Promise<void>((resolve) =>
    inviter.stateChange.addListener((s) => {
      if (s === SessionState.Terminated) resolve();
    }),
  );

  let detachAbort = () => {};
  // Settles when the INVITE transaction ends: accepted, or a final failure.
  const setup = new Promise<CallOutcome | 'accepted'>((resolve) => {
    const ringTimer = setTimeout(() => {
      if (answered) return;
      canceled = true;
      log.info({ ringTimeoutMs: o.ringTimeoutMs }, 'no answer: CANCEL');
      inviter.cancel().catch(() => undefined);
      resolve({ code: 'NO_ANSWER', status: 487, reason: 'no answer within ring timeout' });
    }, o.ringTimeoutMs);
    const onAbort = () => {
      if (answered || canceled) return;
      clearTimeout(ringTimer);
      canceled = true;
      inviter.cancel().catch(() => undefined);
      resolve({ code: 'ABORTED', status: null, reason: 'stopped by shutdown before the answer' });
    };
    if (o.signal?.aborted) queueMicrotask(onAbort);
    else if (o.signal) {
      // The signal is the dialer's, shared by every call: never leave a listener behind.
      const signal = o.signal;
      signal.addEventListener('abort', onAbort, { once: true });
      detachAbort = () => signal.removeEventListener('abort', onAbort);
    }
    inviter
      .invite({
        requestDelegate: {
          onProgress(r) {
            const s = r.message.statusCode;
            // A 180 arriving after the 200 (reordered by a busy PBX) must not move the call back.
            if (!answered && !ringing && (s === 180 || s === 183)) {
              ringing = true;
              o.progress.ringing(s, r.message.reasonPhrase ?? '');
            }
          },
          onAccept() {
            clearTimeout(ringTimer);
            if (canceled) return; // sip.js sends ACK and BYE for a 200 that crossed our CANCEL
            answered = true;
            (inviter.sessionDescriptionHandler as MediaHandler | undefined)?.confirm();
            resolve('accepted');
          },
          onReject(r) {
            clearTimeout(ringTimer);
            if (canceled) return;
            resolve({ code: 'SIP_FINAL', status: r.message.statusCode ?? 500, reason: r.message.reasonPhrase ?? '' });
          },
        },
      })
      .then(() => {
        // The INVITE is on the wire: only now start rendering, so speech never delays the ring.
        audioPromise = o.audio();
        // Nothing to say: stop ringing at once rather than call someone into silence.
        audioPromise.catch((e: Error) => {
          if (answered || canceled) return;
          clearTimeout(ringTimer);
          canceled = true;
          inviter.cancel().catch(() => undefined);
          resolve(audioFailure(e));
        });
      })
      .catch((e: Error) => {
        clearTimeout(ringTimer);
        resolve({ code: 'NETWORK', status: null, reason: e.message });
      });
  });

  const first = await setup.finally(() => detachAbort());
  if (first !== 'accepted') {
    await until(terminated, 64 * o.t1Ms);
    return first;
  }

  const media = inviter.sessionDescriptionHandler as MediaHandler | undefined;
  const remote = media?.remoteMedia();
  if (!media || !remote) {
    await hangUp();
    return { code: 'MEDIA', status: null, reason: 'no usable SDP answer' };
  }
  o.progress.answered(remote.codec);
  const perPacket = o.onPacketSent;
  const callId = inviter.request.callId;
  const answeredStream = media.startStream({ onDigit, onPacketSent: perPacket && ((at) => perPacket(callId, at)) });
  stream = answeredStream;
  const limit = callLimit(o.maxCallMs, o.hangUpSignal, (why) => {
    log.warn({ maxCallMs: o.maxCallMs, why }, 'hanging up before the message ended');
    pressed.length = 0;
    answeredStream.interrupt();
  });
  const outcome = await speak(answeredStream, limit).finally(() => limit.clear());
  if (!remoteHangup) {
    await until(terminated, o.silenceMs);
    await hangUp();
  }
  // The call is over when its media is: the port is free and every report has arrived.
  media.close();
  await until(media.released(), 1000);
  return outcome;

  /** From the answer to the last word: what to report (hanging up is the caller's). */
  async function speak(talking: RtpStreamHandle, limit: CallLimit): Promise<CallOutcome> {
    // Silence while the callee lifts the phone to the ear (calls.answer_delay_ms).
    await until(terminated, o.answerDelayMs);
    let audio: CallAudio | 'reached';
    try {
      audio = await Promise.race([audioPromise ?? o.audio(), limit.reachedAt]);
    } catch (e) {
      log.error({ err: e }, 'message audio failed');
      return audioFailure(e as Error);
    }
    let acknowledged = false;
    while (!remoteHangup && audio !== 'reached' && !limit.reached()) {
      const played = await talking.play(lawOf(audio, talking));
      if (played === 'failed' && !remoteHangup) return { code: 'MEDIA', status: null, reason: 'the RTP worker failed during the message' };
      const key = pressed.shift();
      if (remoteHangup) break;
      if (key === '1') {
        acknowledged = true;
        const ack = await Promise.race([o.acknowledgedAudio().catch(() => null), limit.reachedAt]);
        if (ack && ack !== 'reached' && !remoteHangup) await talking.play(lawOf(ack, talking));
        break;
      }
      if (key !== '2') break;
    }
    if (acknowledged) return { code: 'ACKNOWLEDGED', status: 200, reason: 'acknowledged by keypad 1' };
    const cut = limit.reached();
    const reason = remoteHangup
      ? 'far end hung up'
      : cut === 'stopping'
        ? 'hung up: the appliance is stopping'
        : cut === 'max_call_s'
          ? `hung up at calls.max_call_s (${o.maxCallMs / 1000} s)`
          : 'message played';
    return { code: 'COMPLETED', status: 200, reason, remoteHangup };
  }

  async function hangUp(): Promise<void> {
    if (inviter.state !== SessionState.Established) {
      await until(terminated, 64 * o.t1Ms + 100);
      return;
    }
    // sip.js calls the session Terminated as soon as the BYE is sent; wait for its final
    // response (or our Timer F's local 408) so a shutdown never cuts the BYE short.
    await new Promise<void>((resolve) => {
      const giveUp = setTimeout(resolve, 64 * o.t1Ms + 100);
      const done = () => {
        clearTimeout(giveUp);
        resolve();
      };
      inviter.bye({ requestDelegate: { onAccept: done, onReject: done } }).catch((e) => {
        log.warn({ err: e }, 'BYE failed');
        done();
      });
    });
  }
}

/**
 * How long an answered call may go on: calls.max_call_s from the answer, or until a stopping
 * appliance says so. `onReached` runs once, with which of the two it was.
 */
interface CallLimit {
  reached(): false | 'max_call_s' | 'stopping';
  /** Resolves when the limit is reached (never, if cleared first). */
  reachedAt: Promise<'reached'>;
  clear(): void;
}

function callLimit(ms: number, stopping: AbortSignal | undefined, onReached: (why: 'max_call_s' | 'stopping') => void): CallLimit {
  let hit: false | 'max_call_s' | 'stopping' = false;
  let reach = (_why: 'max_call_s' | 'stopping') => {};
  const reachedAt = new Promise<'reached'>((resolve) => {
    reach = (why) => {
      if (hit) return;
      hit = why;
      onReached(why);
      resolve('reached');
    };
  });
  const onStop = () => reach('stopping');
  const timer = setTimeout(() => reach('max_call_s'), ms);
  if (stopping?.aborted) queueMicrotask(onStop);
  else stopping?.addEventListener('abort', onStop, { once: true });
  return {
    reached: () => hit,
    reachedAt,
    clear() {
      clearTimeout(timer);
      stopping?.removeEventListener('abort', onStop);
    },
  };
}
