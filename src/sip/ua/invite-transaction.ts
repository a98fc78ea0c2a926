import { Inviter, type InviterOptions, type URI, type UserAgent } from 'sip.js';
import type { CallAudio, CallOutcome, CallProgress } from '../../call-model';
import { sendFailure } from '../transport';
import { LOCAL_TIMEOUT_REASON } from '../transport/retransmit';
import type { Attempt } from './attempt';
import type { Guard } from './edge-guard';
import { inviteHeaders, retryAfter, withOurAllow, type InviteExtensions } from './invite-extensions';
import { audioFailure } from './message-player';
import { redirectContacts } from './redirect-targets';
import { endedOrStopped } from './stop-wait';

/** A 421/422 asked for another INVITE (ua/invite-extensions.ts): same Call-ID, next CSeq. */
export interface InviteAgain {
  again: InviteExtensions;
  callId: string;
  cseq: number;
}

/** How the INVITE transaction ended: answered, asked again (421/422), or an outcome before any answer. */
export type InviteResult = 'accepted' | InviteAgain | CallOutcome;

export interface InviteTransactionOptions {
  ua: UserAgent;
  inviter: Inviter;
  attempt: Attempt;
  callId: string;
  extensions: InviteExtensions;
  ringTimeoutMs: number;
  /** sip.invite_timeout_s in ms: not even a 100 Trying by then ends the attempt as silent; 0 or none: no such bound. */
  inviteTimeoutMs?: number;
  /** The dialer's shutdown signal: before the answer it CANCELs, and waits for the CANCEL at most `stopWaitMs` more. */
  signal?: AbortSignal;
  stopWaitMs: number;
  t1Ms: number;
  progress: CallProgress;
  /** The attempt's guard (ua/edge-guard.ts): an illegal attempt edge in a callback fails the attempt. */
  guarded: Guard;
  /** The Inviter's session is over (sip.js SessionState.Terminated). */
  terminated: Promise<void>;
  /** Lets the attempt's RTP port go (nothing will be played on it). */
  closeMedia(): void;
  /** The 200 came and moved the attempt: its headers are the answer's (session timer). */
  accepted(answer: { getHeader(name: string): string | undefined }): void;
  /** Called once the INVITE is on the wire: the speech renders while it rings; a failure CANCELs. */
  startAudio(): Promise<CallAudio>;
  onRedirect?: (contacts: ReturnType<typeof redirectContacts>) => void;
}

export interface InviteTransaction {
  /** Settles once answered; an outcome before the answer once the CANCEL is over too (cancel_done). */
  result: Promise<InviteResult>;
  /** The timers and the shutdown listener go (once settled, or after a bug). */
  dispose(): void;
}

/**
 * The Inviter of one INVITE of an attempt: our extensions' headers (ua/invite-extensions.ts)
 * and the caller's, UPDATE and PRACK in Allow. A retry after 421/422 keeps the Call-ID with the
 * next CSeq (sip.js takes them from params at run time).
 */
export function newInviter(ua: UserAgent, target: URI, x: InviteExtensions, extraHeaders: string[], previous: { callId: string; cseq: number } | null): Inviter {
  const params = previous ? ({ callId: previous.callId, cseq: previous.cseq + 1 } as InviterOptions['params']) : undefined;
  const inviter = new Inviter(ua, target, { earlyMedia: false, extraHeaders: [...inviteHeaders(x), ...extraHeaders], params });
  const allow = inviter.request.extraHeaders.findIndex((h) => /^Allow:/i.test(h));
  if (allow >= 0) inviter.request.extraHeaders[allow] = `Allow: ${withOurAllow(inviter.request.extraHeaders[allow]!.slice(6))}`;
  return inviter;
}

/**
 * The INVITE transaction of one attempt (ua/place-call.ts): sends the Inviter's INVITE and
 * feeds each answer, the ring timer, the shutdown signal and the audio's failure to the
 * attempt (ua/attempt.ts) as events; an answer acts only when its event moved the attempt.
 * Settles with 'accepted', a 421/422's request for another INVITE, or the outcome; before
 * any answer the attempt ends with its CANCEL (cancel_done).
 */
export function inviteTransaction(o: InviteTransactionOptions): InviteTransaction {
  const { attempt, inviter, guarded } = o;
  const inviteTimeoutMs = o.inviteTimeoutMs ?? 0;
  let ringTimer: ReturnType<typeof setTimeout> | undefined;
  let silenceTimer: ReturnType<typeof setTimeout> | undefined;
  let detachAbort = () => {};
  const dispose = () => {
    clearTimeout(ringTimer);
    clearTimeout(silenceTimer);
    detachAbort();
  };
  const outcome = new Promise<InviteResult>((resolve) => {
    let settled = false;
    /** Any response at all, 100 Trying included: the trunk is there (trunk-route.ts). */
    let heard = false;
    const settle = (r: InviteResult) => {
      dispose();
      if (!settled) resolve(r);
      settled = true;
    };
    /** Ring timeout, shutdown or no audio: CANCEL (RFC 3261 §9.1), unless answered already. */
    const cancel = (outcome: CallOutcome) => {
      if (!attempt.on('cancel', outcome.reason)) return;
      inviter.cancel().catch(() => undefined);
      settle(outcome);
    };
    ringTimer = setTimeout(
      guarded(() =>
        cancel(
          heard
            ? { code: 'NO_ANSWER', status: 487, reason: 'no answer within ring timeout' }
            : { code: 'NO_ANSWER', status: 487, reason: 'no response to the INVITE within ring timeout', silent: true },
        ),
      ),
      o.ringTimeoutMs,
    );
    // A trunk that answers says so in milliseconds (a 100 Trying at least): one that has said
    // nothing by sip.invite_timeout_s is given up for the next trunk without waiting for Timer B
    // (trunks/trunk-route.ts `silent`). Our CANCEL waits for a provisional answer (RFC 3261 §9.1).
    if (inviteTimeoutMs > 0 && inviteTimeoutMs < o.ringTimeoutMs) {
      silenceTimer = setTimeout(
        guarded(() => {
          if (!heard) cancel({ code: 'NO_ANSWER', status: 487, reason: `no response to the INVITE within sip.invite_timeout_s (${inviteTimeoutMs / 1000} s)`, silent: true });
        }),
        inviteTimeoutMs,
      );
    }
    const onAbort = guarded(() => cancel({ code: 'ABORTED', status: null, reason: 'stopped by shutdown before the answer' }));
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
          onTrying: () => {
            heard = true;
          },
          onProgress: guarded((r) => {
            heard = true;
            const s = r.message.statusCode;
            // 181 (being forwarded) and 182 (queued) are progress like 180 (RFC 3261 §21.1), kept
            // with their code; only the first moves the attempt (attempt.ts ATTEMPT_REACTIONS).
            if (s !== undefined && s >= 180 && s <= 183 && attempt.on('progress', `${s}`)) o.progress.ringing(s, r.message.reasonPhrase ?? '');
          }),
          onAccept: guarded((r) => {
            if (!attempt.on('accepted', '200')) return; // a 200 that crossed our CANCEL: sip.js ACKs and BYEs it
            o.accepted(r.message);
            settle('accepted');
          }),
          // A 3xx ends this INVITE at once (sip.js ACKs it); ua/follow-redirects.ts may try the Contact.
          onRedirect: guarded((r) => {
            const status = r.message.statusCode ?? 302;
            if (!attempt.on('refused', `${status}`)) return;
            o.onRedirect?.(redirectContacts(r.message));
            settle({ code: 'SIP_FINAL', status, reason: r.message.reasonPhrase ?? '' });
          }),
          onReject: guarded((r) => {
            const status = r.message.statusCode ?? 500;
            if (!attempt.on('refused', `${status}`)) return; // the 487 to our CANCEL
            const again = retryAfter(status, (name) => r.message.getHeader(name), o.extensions);
            if (again) {
              settle({ again, callId: o.callId, cseq: r.message.cseq });
              return;
            }
            // Retry-After: "120" or "120 (maintenance);duration=…" (RFC 3261 §20.33); the lifecycle weighs it.
            const retryAfterS = Number.parseInt(r.message.getHeader('retry-after') ?? '', 10);
            // Made on our side, nothing from the trunk: sip.js's bare messages (no raw text) for a
            // timeout or a transport error's 503, and our transport's Timer B 408 (transport/retransmit.ts).
            const local = !r.message.data || (status === 408 && r.message.reasonPhrase === LOCAL_TIMEOUT_REASON);
            // The bare 503 names no cause; the transport kept it (transport/index.ts item 23).
            const cause = local && status === 503 ? sendFailure(o.ua.transport, o.callId) : undefined;
            const reason = cause ?? r.message.reasonPhrase ?? '';
            const outcome: CallOutcome = { code: 'SIP_FINAL', status, reason, ...(local ? { local: true as const } : {}) };
            settle(Number.isFinite(retryAfterS) && retryAfterS > 0 ? { ...outcome, retryAfterS } : outcome);
          }),
        },
      })
      .then(() => {
        // The INVITE is on the wire: only now start rendering, so speech never delays the ring;
        // nothing to say: stop ringing at once rather than call someone into silence.
        o.startAudio().catch(guarded((e: Error) => cancel(audioFailure(e))));
      })
      .catch(
        guarded((e: Error) => {
          attempt.on('not_sent', 'INVITE not sent');
          settle({ code: 'NETWORK', status: null, reason: e.message });
        }),
      );
  });
  const result = outcome.then(async (r) => {
    if (r === 'accepted') return r;
    if ('silent' in r && r.silent) {
      // Not even a 100 Trying came, so no CANCEL went out (RFC 3261 §9.1): the INVITE's own
      // transaction runs on alone until Timer B (a late 1xx gets our CANCEL, a late 200 sip.js's
      // ACK and BYE), and the next trunk need not wait for it (docs/telephony.md "SIP trunks: several, in order").
      // Nothing will be played on this attempt: its RTP port goes back now, not after Timer B.
      o.closeMedia();
      void o.terminated.then(guarded(() => void attempt.on('cancel_done', 'the unanswered INVITE gave up')));
      return r;
    }
    // A CANCEL ends in 64·T1 at worst (§9.1: none is sent before a 1xx; §17.1.2.2 Timer F);
    // a stopping appliance gives it up sooner, and telephone.stop() ends what is left.
    await endedOrStopped(o.terminated, 64 * o.t1Ms, o.signal, o.stopWaitMs);
    attempt.on('cancel_done', 'CANCEL done');
    return r;
  });
  return { result, dispose };
}
