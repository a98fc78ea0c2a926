import { SessionState, type Invitation, type URI } from 'sip.js';
import type { CallAudio } from '../../call-model';
import { describeError, type Logger } from '../../log';
import { until } from '../../until';
import { infoDigit } from '../rtp/dtmf';
import { parseRemote } from '../rtp/sdp';
import type { RtpStreamHandle } from '../rtp/engine';
import { edgeGuard } from './edge-guard';
import { createInboundCallMachine } from './inbound-call';
import type { MediaHandler, SrtpMode } from './media-handler';
import { keepSessionAlive } from './session-upkeep';
import { parseSessionExpires } from './session-timer';
import type { UpdateServer } from './update-server';

/** How one prompt ended: heard to its end, cut short by a key (barge-in), or the caller is gone. */
export type PromptEnd = 'played' | 'cut' | 'gone';

export type TransferResult = { ok: true } | { ok: false; reason: string };

/**
 * A call someone placed to the appliance (docs/telephony.md "Voice desk"), answered: what the
 * desk's menu (src/voice-desk) needs of it. Keys arrive by RFC 4733, SIP INFO or tones in the
 * audio, whichever the call uses (the same paths as outbound calls: rtp/stream.ts, rtp/dtmf.ts); a
 * key pressed while a prompt plays cuts the prompt short and is kept for nextKey (type-ahead).
 */
export interface InboundCall {
  readonly callId: string;
  /** Plays one prompt; never rejects. */
  play(audio: CallAudio): Promise<PromptEnd>;
  /** The next key pressed (the oldest not yet read); null when none came within `ms` or the caller is gone. */
  nextKey(ms: number): Promise<string | null>;
  /** Keys pressed and not read yet are forgotten (a fresh PIN entry). */
  clearKeys(): void;
  gone(): boolean;
  /**
   * Why the call ended, once it has: `caller hung up` (their BYE), the reason we hung up with,
   * or `ended by the appliance` (sip.js ended the session: the appliance stopping, an ACK or a
   * refresh that never came). Null while it is up.
   */
  endReason(): string | null;
  /**
   * A blind transfer (RFC 3515 REFER, RFC 5589 §6): ok once the PBX's NOTIFY says the
   * transfer target answered (the caller is then the PBX's; hang up); not ok when the REFER
   * is refused (405, 501, 603 …), a NOTIFY reports a failure, or nothing final comes in time.
   */
  transfer(target: URI, waitMs: number): Promise<TransferResult>;
  /** BYE (once), then the media port is let go; resolves when both are done. */
  hangUp(why: string): Promise<void>;
}

export interface AnswerCallOptions {
  /** The trunk's media protection: with `sdes` a plain offer is refused, without it an SRTP one. */
  srtp: SrtpMode;
  minSeS: number;
  updates: UpdateServer;
  t1Ms: number;
  log: Logger;
}

/**
 * Answers an INVITE (200 with our SDP answer; sip.js then waits for the ACK) with the same
 * pieces as an outbound call: the media handler (ua/media-handler.ts answers the offer: its
 * codec, payload types, telephone-event, SRTP on a trunk with srtp = "sdes"), the RTP worker's
 * stream, session timers and the PBX's re-INVITEs and UPDATEs (ua/session-upkeep.ts).
 * Its states and their edges are ua/inbound-call.ts: sip.js's callbacks, the stream's keys and
 * the desk's calls only ask the machine to move, and act when it did.
 * Resolves null when the call could not be answered (no usable offer: sip.js answered 488).
 */
export async function answerCall(invitation: Invitation, o: AnswerCallOptions): Promise<InboundCall | null> {
  const callId = invitation.request.callId;
  const log = o.log.child({ callId, inbound: true });
  const m = createInboundCallMachine(log);
  const keys: string[] = [];
  let waiter: ((key: string | null) => void) | null = null;
  let stream: RtpStreamHandle | null = null;
  let hangingUp: Promise<void> | null = null;
  const gone = () => m.state === 'ended';

  // An illegal edge in a callback from sip.js or the stream (the machine logged it) gives the
  // call up, best effort, instead of throwing into them.
  const { guarded, failed } = edgeGuard();
  failed.catch(() => {
    if (invitation.state === SessionState.Established) invitation.bye().catch(() => undefined);
    else if (invitation.state === SessionState.Initial) invitation.reject({ statusCode: 500 }).catch(() => undefined);
    (invitation.sessionDescriptionHandler as MediaHandler | undefined)?.close();
  });

  const terminated = new Promise<void>((resolve) =>
    invitation.stateChange.addListener(
      guarded((s: SessionState) => {
        if (s !== SessionState.Terminated) return;
        // Moved before anyone waiting hears of the end: neither their BYE nor our hang-up came first.
        m.on('terminated', 'ended by the appliance');
        waiter?.(null);
        stream?.interrupt();
        resolve();
      }),
    ),
  );

  const onDigit = guarded((digit: string) => {
    log.info({ digit }, 'keypad');
    keys.push(digit);
    // Barge-in: a key while a prompt plays cuts it short and stays queued for the menu.
    if (m.on('key', digit)) stream?.interrupt();
    const w = waiter;
    if (w) {
      waiter = null;
      w(keys.shift()!);
    }
  });

  invitation.delegate = {
    onBye: guarded((bye) => {
      void bye.accept().catch(() => undefined);
      m.on('far_end_bye', 'caller hung up');
    }),
    onInfo: guarded((info) => {
      void info.accept().catch(() => undefined);
      const d = infoDigit(info.request.getHeader('content-type') ?? '', info.request.body ?? '');
      if (d) onDigit(d);
    }),
  };

  // RFC 4028 §9: a 2xx to an INVITE that asked for a session timer names the interval and who
  // refreshes (the caller unless it asked us); we refresh only when it names us.
  const asked = parseSessionExpires(invitation.request.getHeader('session-expires'));
  const timerHeaders = asked ? [`Session-Expires: ${asked.seconds};refresher=${asked.refresher ?? 'uac'}`, 'Require: timer'] : [];
  // An offer we cannot take (no G.711, no audio, SRTP where the trunk has none or the other
  // way round: ua/media-handler.ts) is 488 (RFC 3261 §13.3.1.4); sip.js would say 480.
  const offer = invitation.request.body ?? '';
  const parsed = offer ? parseRemote(offer) : null;
  if (parsed && ('code' in parsed || (o.srtp === 'sdes') !== Boolean(parsed.srtp))) {
    const reason = 'code' in parsed ? parsed.reason : o.srtp === 'sdes' ? 'plain RTP on a trunk with srtp = "sdes"' : 'SRTP on a trunk without srtp';
    log.warn({ reason }, 'inbound call offers no media we can take: 488');
    m.on('refused', '488');
    await invitation.reject({ statusCode: 488 }).catch(() => undefined);
    return null;
  }
  try {
    await invitation.accept({ extraHeaders: timerHeaders });
  } catch (e) {
    log.warn({ error: describeError(e) }, 'inbound call could not be answered');
    m.on('refused', 'the 200 could not be sent');
    return null;
  }
  m.on('accepted', '200 sent');
  const handler = invitation.sessionDescriptionHandler as MediaHandler | undefined;
  // An INVITE without SDP got our offer in the 200; its answer comes with the ACK (RFC 3264 §2),
  // which sip.js hands to the handler (remoteKnown). sip.js ends the session instead when no ACK
  // comes by 64·T1 (Invitation.onAckTimeout) or its answer cannot be used (a BYE with 488).
  if (!offer && handler && !handler.remoteMedia() && !gone()) {
    await until(Promise.race([handler.remoteKnown(), terminated]), 64 * o.t1Ms);
  }
  const remote = handler?.remoteMedia();
  if (!handler || !remote) {
    m.on('no_media', 'no usable media by the ACK');
    log.warn('inbound call without usable media: hanging up');
    if (invitation.state === SessionState.Established) await invitation.bye().catch(() => undefined);
    handler?.close();
    return null;
  }
  m.on('media_up', remote.codec);
  const upkeep = keepSessionAlive({
    inviter: invitation,
    handler,
    callId,
    answer: { getHeader: (name) => (name.toLowerCase() === 'session-expires' ? timerHeaders[0]?.slice('Session-Expires: '.length) : undefined) },
    role: 'uas',
    minSeS: o.minSeS,
    updates: o.updates,
    log,
    lost: (why) => {
      log.warn({ why }, 'the PBX lost the session: hanging up');
      void call.hangUp(why);
    },
  });
  const live = handler.startStream({ onDigit });
  stream = live;

  /** Our REFER's first final word: its refusal, or a NOTIFY's status line (RFC 3515 §2.4.5: message/sipfrag of the new call). */
  const refer = (target: URI) =>
    new Promise<TransferResult>((resolve) => {
      invitation
        .refer(target, {
          requestDelegate: {
            onReject: (r) => resolve({ ok: false, reason: `REFER answered ${r.message.statusCode ?? 500} ${r.message.reasonPhrase ?? ''}`.trim() }),
          },
          onNotify: (n) => {
            void n.accept().catch(() => undefined);
            const status = Number(/^SIP\/2\.0\s+(\d{3})/.exec((n.request.body ?? '').trim())?.[1] ?? 0);
            if (status >= 200 && status < 300) resolve({ ok: true });
            else if (status >= 300) resolve({ ok: false, reason: `the transfer failed: NOTIFY ${status}` });
          },
        })
        .catch((e: Error) => resolve({ ok: false, reason: `REFER not sent: ${e.message}` }));
    });

  const call: InboundCall = {
    callId,
    gone,
    endReason: () => (gone() ? m.endedBy : null),
    async play(audio) {
      if (gone()) return 'gone';
      // Type-ahead: a key already waiting skips the prompt.
      if (keys.length > 0) return 'cut';
      if (!m.on('prompt', 'prompt')) return 'gone'; // we are hanging up
      const law = live.codec;
      const r = await live.play(law === 'PCMU' ? audio.pcmu : audio.pcma, law);
      const cut = m.state === 'cut';
      m.on('prompt_end', r);
      if (gone() || r === 'failed') return 'gone';
      return cut ? 'cut' : 'played';
    },
    nextKey(ms) {
      if (keys.length > 0) return Promise.resolve(keys.shift()!);
      if (gone()) return Promise.resolve(null);
      return new Promise<string | null>((resolve) => {
        const timer = setTimeout(() => {
          waiter = null;
          resolve(null);
        }, ms);
        waiter = (key) => {
          clearTimeout(timer);
          waiter = null;
          resolve(key);
        };
      });
    },
    clearKeys: () => void (keys.length = 0),
    async transfer(target, waitMs) {
      if (!m.on('refer', target.toString())) return { ok: false, reason: 'the caller hung up' };
      let timer: ReturnType<typeof setTimeout> | undefined;
      const r = await Promise.race<TransferResult>([
        refer(target),
        new Promise((resolve) => (timer = setTimeout(() => resolve({ ok: false, reason: 'no final NOTIFY about the transfer' }), waitMs))),
        terminated.then(() => ({ ok: false, reason: 'the call ended during the transfer' })),
      ]);
      clearTimeout(timer);
      log.info({ target: target.toString(), ...r }, 'transfer outcome');
      m.on('transfer_done', r.ok ? 'transferred' : r.reason);
      return r;
    },
    hangUp(why) {
      hangingUp ??= (async () => {
        m.on('hang_up', why);
        upkeep.stop();
        live.interrupt();
        if (m.state === 'hanging_up' && invitation.state === SessionState.Established) {
          log.info({ why }, 'hanging up the inbound call');
          const answered = new Promise<void>((done) => {
            invitation.bye({ requestDelegate: { onAccept: () => done(), onReject: () => done() } }).catch(() => done());
          });
          await until(answered, 64 * o.t1Ms + 100);
        }
        m.on('bye_done', 'BYE done');
        await until(terminated, 1000);
        handler.close();
        await until(handler.released(), 1000);
      })();
      return hangingUp;
    },
  };
  // The far end's BYE, or sip.js ending the session itself: the media port is let go as when
  // we hang up (the machine has ended by then: the why is not used).
  void terminated.then(() => call.hangUp('the session ended'));
  return call;
}
