import { SessionState, type URI, type UserAgent } from 'sip.js';
import { IllegalTransitionError, type CallAudio, type CallOutcome, type CallProgress } from '../../call-model';
import { describeError, type Logger } from '../../log';
import { until } from '../../until';
import { infoDigit } from '../rtp/dtmf';
import { createAttempt } from './attempt';
import { edgeGuard } from './edge-guard';
import { firstInvite, type InviteExtensions } from './invite-extensions';
import { inviteTransaction, newInviter, type InviteAgain } from './invite-transaction';
import type { MediaHandler } from './media-handler';
import { createMessagePlayer, type MessagePlayer } from './message-player';
import { byeWaited } from './send-bye';
import { keepSessionAlive } from './session-upkeep';
import type { UpdateServer } from './update-server';
import type { MediaReport } from '../rtp/echo-check';
import { createAnswerAnalysis, type AmdRequest } from './answer-analysis';

/** Ask for the stream's counts at its end; `echo`: also note and count what comes back (rtp/echo-check.ts). */
export interface MediaCheck {
  echo: boolean;
  onReport(report: MediaReport): void;
}

export interface PlaceCallOptions {
  /** Called once, right after the INVITE left: the speech renders while the phone rings. */
  audio: () => Promise<CallAudio>;
  acknowledgedAudio: () => Promise<CallAudio>;
  ringTimeoutMs: number;
  /** sip.invite_timeout_s: no response at all within it ends the attempt as silent; 0: none. */
  inviteTimeoutMs?: number;
  answerDelayMs: number;
  maxCallMs: number;
  silenceMs: number;
  t1Ms: number;
  /** ua/stop-wait.ts: once `signal` is aborted, the longest our CANCEL or BYE is waited for. */
  stopWaitMs: number;
  progress: CallProgress;
  signal?: AbortSignal;
  hangUpSignal?: AbortSignal;
  log: Logger;
  onPacketSent?: (callId: string, at: number) => void;
  /** sip.session_expires_s and sip.min_se_s (RFC 4028). */
  sessionExpiresS: number;
  minSeS: number;
  updates: UpdateServer;
  /** Headers added to the INVITE (P-Asserted-Identity, Privacy: ua/telephone.ts identityHeaders). */
  extraHeaders?: string[];
  /** The voice-path self-test's look at the media (docs/telephony.md "Voice-path self-test"): reported before the attempt resolves. */
  mediaCheck?: MediaCheck;
  /** A 3xx's Contact (RFC 3261 §8.1.3.4), most preferred first; the attempt ends SIP_FINAL with the 3xx. */
  onRedirect?: (contacts: URI[]) => void;
  /** Voicemail detection on the answer (docs/telephony.md "Voicemail detection"); absent: none, `unknown`. */
  amd?: AmdRequest | null;
  /** What a message left on a voicemail plays; absent: `audio`. */
  voicemailAudio?: () => Promise<CallAudio>;
}

/**
 * One attempt: INVITE, ring, and once answered (never on 183 early media) the message
 * (ua/message-player.ts), then BYE. Its states and their edges are ua/attempt.ts; sip.js
 * delegates, the ring timer, the shutdown signal and the audio render only ask it to move
 * (until the answer: ua/invite-transaction.ts).
 * Resolves with what happened and never retries the call; within the attempt a 421 or 422
 * gets its one corrected INVITE (ua/invite-extensions.ts). An illegal attempt edge is a
 * bug: the call is hung up or cancelled, best effort, and the promise REJECTS with that
 * IllegalTransitionError (the dialer ends the call `failed` with it).
 */
export async function placeCall(ua: UserAgent, target: URI, o: PlaceCallOptions): Promise<CallOutcome> {
  // Rendered once, however many INVITEs the attempt takes.
  let audio: Promise<CallAudio> | null = null;
  const once = { ...o, audio: () => (audio ??= o.audio()) };
  let next: InviteAgain | null = null;
  for (let x = firstInvite(o.sessionExpiresS, o.minSeS); ; x = next.again) {
    const r = await inviteOnce(ua, target, once, x, next);
    if (!('again' in r)) return r;
    o.log.info({ callId: r.callId, require: r.again.require, sessionExpiresS: r.again.sessionExpiresS }, 'INVITE again with what the PBX asked for');
    next = r;
  }
}

async function inviteOnce(ua: UserAgent, target: URI, o: PlaceCallOptions, x: InviteExtensions, previous: InviteAgain | null): Promise<CallOutcome | InviteAgain> {
  const inviter = newInviter(ua, target, x, o.extraHeaders ?? [], previous);
  const callId = inviter.request.callId;
  const log = o.log.child({ callId, target: target.user });
  const attempt = createAttempt(log);
  const { guarded, failed } = edgeGuard();
  let audioPromise: Promise<CallAudio> | null = null;
  let player: MessagePlayer | null = null;
  let answer: { getHeader(name: string): string | undefined } = { getHeader: () => undefined };
  let upkeep = { stop() {} }; // session timer and UPDATEs, once answered
  let hangingUp: Promise<void> | null = null;
  /** The PBX answered a refresh with 408/481: the session is gone (RFC 4028 §10). */
  let sessionLost = false;
  let stopPlaying = (): void => undefined;
  let analysisKey = (): void => undefined;

  const onDigit = guarded((digit: string) => {
    log.info({ digit }, 'keypad');
    o.progress.digit(digit);
    analysisKey(); // before the key reaches the player: a person, if the analysis still runs
    player?.key(digit);
  });
  const media = () => inviter.sessionDescriptionHandler as MediaHandler | undefined;
  inviter.delegate = {
    onBye: guarded((bye) => {
      void bye.accept().catch(() => undefined);
      attempt.on('far_end_bye', 'far end hung up');
    }),
    onInfo: guarded((info) => {
      void info.accept().catch(() => undefined);
      const d = infoDigit(info.request.getHeader('content-type') ?? '', info.request.body ?? '');
      if (d) onDigit(d);
    }),
  };
  const terminated = new Promise<void>((resolve) =>
    inviter.stateChange.addListener((s) => {
      if (s === SessionState.Terminated) resolve();
    }),
  );

  const invite = inviteTransaction({
    ...o, // its timers (ring, invite_timeout_s, T1, the stop wait), signal, progress and onRedirect
    ua,
    inviter,
    attempt,
    callId,
    extensions: x,
    guarded,
    terminated,
    accepted: (message) => {
      answer = message;
      media()?.confirm();
    },
    startAudio: () => (audioPromise ??= o.audio()),
    closeMedia: () => media()?.close(),
  });
  const running = attemptCall();
  running.catch(() => undefined); // after a bug, whatever it still does is let go
  try {
    return await Promise.race([running, failed]);
  } catch (e) {
    if (e instanceof IllegalTransitionError) {
      log.error({ error: describeError(e), state: attempt.state }, 'illegal attempt transition: giving the call up');
      abandon();
    }
    throw e;
  } finally {
    invite.dispose();
    upkeep.stop();
  }

  async function attemptCall(): Promise<CallOutcome | InviteAgain> {
    const first = await invite.result; // before an answer: once the CANCEL is over
    if (first !== 'accepted') return first;
    const handler = media();
    const remote = handler?.remoteMedia();
    if (!handler || !remote) {
      // A trunk with srtp = "sdes" answered without SRTP: media-handler.ts names it (SRTP_REQUIRED_REASON).
      const outcome: CallOutcome = { code: 'MEDIA', status: null, reason: handler?.unusableAnswer() ?? 'no usable SDP answer' };
      await hangUp(outcome.reason);
      return outcome;
    }
    upkeep = keepSessionAlive({
      inviter,
      handler,
      callId,
      answer,
      minSeS: x.minSeS,
      updates: o.updates,
      log,
      lost: guarded((why: string) => {
        log.warn({ why }, 'the PBX lost the session: hanging up');
        // Nobody hears the rest: stop playing now, and count it as the far end's end of the call.
        sessionLost = true;
        stopPlaying();
        void hangUp(why).catch(() => undefined);
      }),
    });
    const perPacket = o.onPacketSent;
    const analysis = o.amd ? createAnswerAnalysis() : null;
    const stream = handler.startStream({
      onDigit,
      onPacketSent: perPacket && ((at) => perPacket(callId, at)),
      ...(o.mediaCheck ? { echoCheck: o.mediaCheck.echo, onReport: o.mediaCheck.onReport } : {}),
      ...(analysis && o.amd ? { amd: o.amd.timings, onAmd: (u) => analysis.update(u) } : {}),
    });
    stopPlaying = () => stream.interrupt();
    analysisKey = () => stream.analysisKey();
    attempt.on('media_up', 'media up');
    player = createMessagePlayer({
      stream,
      message: () => audioPromise ?? o.audio(),
      acknowledgedAudio: o.acknowledgedAudio,
      answerDelayMs: o.answerDelayMs,
      maxCallMs: o.maxCallMs,
      hangUpSignal: o.hangUpSignal,
      farEndGone: () => attempt.state === 'ended' || sessionLost,
      ended: terminated,
      log,
      analysis: analysis && o.amd ? { state: analysis, onMachine: o.amd.onMachine } : null,
      voicemailMessage: o.voicemailAudio,
      onVerdict: (v) => {
        log.info({ answeredBy: v.answeredBy, amdReason: v.amdReason }, 'answered by');
        o.progress.answered(remote.codec, v);
      },
    });
    const outcome = await player.play();
    if (attempt.state !== 'ended') {
      await until(terminated, o.silenceMs);
      await hangUp(outcome.reason);
    }
    // The call is over when its media is: the port is free and every report has arrived.
    handler.close();
    await until(handler.released(), 1000);
    return outcome;
  }

  /** Once: a lost session (upkeep) may have started it before the player ended. */
  function hangUp(why: string): Promise<void> {
    hangingUp ??= sendBye(why);
    return hangingUp;
  }

  async function sendBye(why: string): Promise<void> {
    if (!attempt.on('hang_up', why)) return; // the far end hung up first
    await byeWaited(inviter, terminated, o, log);
    attempt.on('bye_done', 'BYE done');
  }

  /** After a bug: end the SIP side and free the media port, best effort, without waiting. */
  function abandon(): void {
    if (inviter.state === SessionState.Established) inviter.bye().catch(() => undefined);
    else if (inviter.state === SessionState.Initial || inviter.state === SessionState.Establishing) inviter.cancel().catch(() => undefined);
    media()?.close();
  }
}
