import { randomBytes } from 'node:crypto';
import type { BodyAndContentType, SessionDescriptionHandler } from 'sip.js';
import type { RtpEngine, RtpPort, RtpStreamHandle, StreamOptions } from '../rtp/engine';
import { answer, offer, parseRemote, type LocalMedia, type RemoteMedia } from '../rtp/sdp';
import { SRTP_MASTER_BYTES } from '../rtp/srtp';
import type { StreamMedia } from '../rtp/stream';

/** How a trunk protects its media (docs/telephony.md "SIP over TLS and SRTP"): plain RTP, or SRTP keyed by SDES. */
export type SrtpMode = 'off' | 'sdes';

/**
 * The start of a call's reason when a trunk with `srtp = "sdes"` got a plain answer (or an
 * offer) without SRTP: a trunk's fault, not the callee's (src/calls decides where it goes).
 */
export const SRTP_REQUIRED_REASON = 'SRTP required';

/**
 * Where the offer/answer exchange of the call stands (RFC 3264 §4, RFC 6337 §2):
 *
 *   initial ──200 OK (confirm)──> stable ──peer's offer (re-INVITE, UPDATE)──> remote-offer
 *                                   ^  \                                         │
 *                                   │   └──our offer (SDP-less re-INVITE, our    │ our answer (applied)
 *                                   │       session refresh)──> local-offer      │ or 488 (rolled back)
 *                                   └───── their answer (200, ACK; applied) ─────┴
 *
 * In `initial` every SDP is the answer to our INVITE's offer (a 183's, then the 200's,
 * which wins: forked early media may come from elsewhere).
 */
type Negotiation = 'initial' | 'stable' | 'remote-offer' | 'local-offer';

/** Everything but the o= line: whether two bodies we send say the same (RFC 3264 §8). */
const sansOrigin = (sdp: string) => sdp.replace(/^o=.*$/m, '');

/**
 * sip.js's SessionDescriptionHandler for a server: plain SDP and our own RTP (a port and
 * stream in the RTP worker, rtp/engine.ts) instead of WebRTC. The INVITE carries our offer;
 * the 200 OK's answer says where and in which law to send. Every later exchange (a
 * re-INVITE with or without SDP, an UPDATE, our session refresh) that completes is applied
 * to the running stream at once: address, law, payload types and direction (RFC 3264 §8,
 * Asterisk's direct_media moves the media to the phone mid-call). An offer without G.711
 * throws, which sip.js answers 488 (RFC 3261 §14.2), and the call goes on as it was.
 */
export class MediaHandler implements SessionDescriptionHandler {
  private rtpPort: RtpPort | null = null;
  private local: LocalMedia | null = null;
  private remote: RemoteMedia | null = null;
  private pendingOffer: RemoteMedia | null = null;
  private negotiation: Negotiation = 'initial';
  /** The last SDP we sent: a body equal to it goes out with its o= version (send()). */
  private lastSent: string | null = null;
  private repeatNextOffer = false;
  private stream: RtpStreamHandle | null = null;
  private closed = false;
  private releasing: Promise<void> = Promise.resolve();
  /** Our SRTP master key || salt for this call (RFC 4568 §6.1: fresh random keys per session). */
  private readonly srtpKey: Uint8Array | undefined;
  /** Why the answer to our INVITE could not be used, when that was SRTP's doing. */
  private answerFailure: string | null = null;
  /** Settles when `remote` is first set (remoteKnown). */
  private readonly known = settleOnce();

  constructor(
    private readonly rtp: RtpEngine,
    private readonly address: string,
    private readonly srtp: SrtpMode = 'off',
  ) {
    this.srtpKey = srtp === 'sdes' ? new Uint8Array(randomBytes(SRTP_MASTER_BYTES)) : undefined;
  }

  /** Set when the INVITE's answer was refused for SRTP's sake: the call's reason (SRTP_REQUIRED_REASON …). */
  unusableAnswer(): string | null {
    return this.answerFailure;
  }

  /** The 200 OK arrived: SDP from now on is a new offer or the answer to ours. */
  confirm(): void {
    if (this.negotiation === 'initial') this.negotiation = 'stable';
  }

  /**
   * Our next offer (a session refresh, RFC 4028 §7.4) is the last SDP we sent, unchanged,
   * o= version included: nothing about the media changes (RFC 3264 §8).
   */
  repeatLastOffer(): void {
    this.repeatNextOffer = true;
  }

  /** Where and how to send, once the answer arrived; null before. */
  remoteMedia(): RemoteMedia | null {
    return this.remote;
  }

  /**
   * Resolves once the far end's media is known: the answer to our offer (in a 200, or in the
   * ACK to our 200 when an INVITE came without SDP: RFC 3264 §2, sip.js hands it to
   * setDescription) or an offer we answered. Never rejects; it stays pending when none comes.
   */
  remoteKnown(): Promise<void> {
    return this.known.promise;
  }

  /** Starts the continuous RTP stream (call after the 200 OK). */
  startStream(opts: Pick<StreamOptions, 'onDigit' | 'onPacketSent' | 'echoCheck' | 'onReport' | 'amd' | 'onAmd'>): RtpStreamHandle {
    if (this.rtpPort === null || !this.remote) throw new Error('media not negotiated');
    if (!this.stream) {
      this.stream = this.rtpPort.start({ ...this.streamMedia(this.remote), ...opts });
      this.stream.hold(silentTowards(this.remote));
    }
    return this.stream;
  }

  async getDescription(): Promise<BodyAndContentType> {
    if (this.rtpPort === null) {
      const taken = await this.rtp.take();
      if ('code' in taken) throw new Error(taken.code);
      if (this.closed) {
        void taken.release();
        throw new Error('session closed');
      }
      this.rtpPort = taken;
      this.local = { address: this.address, port: taken.port, sessionId: Date.now() % 1e9, version: 1, ...(this.srtpKey ? { srtpKey: this.srtpKey } : {}) };
    }
    const local = this.local!;
    if (this.negotiation === 'remote-offer') {
      const peer = this.pendingOffer!;
      this.pendingOffer = null;
      this.negotiation = 'stable';
      // An unchanged offer renders the same answer, and send() keeps its o= version (RFC 3264 §8).
      const body = this.send((version) => answer({ ...local, version }, peer));
      this.apply(peer);
      return sdp(body);
    }
    if (this.negotiation === 'stable') {
      // An offer inside the dialog: to a re-INVITE without SDP (the answer comes in its ACK),
      // or our session refresh, which repeats the last SDP as it was.
      this.negotiation = 'local-offer';
      if (this.repeatNextOffer && this.lastSent) {
        this.repeatNextOffer = false;
        return sdp(this.lastSent);
      }
    }
    return sdp(this.send((version) => offer({ ...local, version })));
  }

  hasDescription(contentType: string): boolean {
    return contentType === 'application/sdp';
  }

  async setDescription(body: string): Promise<void> {
    const parsed = parseRemote(body);
    if ('code' in parsed) {
      // RTP/SAVP with no crypto line we can use (another suite, MKI): SRTP's failure too.
      if (this.srtp === 'sdes' && this.negotiation === 'initial' && parsed.reason.startsWith('RTP/SAVP')) this.answerFailure = `${SRTP_REQUIRED_REASON}: ${parsed.reason}`;
      throw new Error(`${parsed.code}: ${parsed.reason}`);
    }
    // The trunk requires SRTP: a plain answer or offer is refused (sip.js answers 488 to an
    // offer; to our INVITE's answer it sends ACK and BYE, place-call.ts ends the call).
    if (this.srtp === 'sdes' && !parsed.srtp) {
      const reason = `${SRTP_REQUIRED_REASON}: the PBX answered plain RTP (RTP/AVP without a=crypto) on a trunk with srtp = "sdes"`;
      if (this.negotiation === 'initial') this.answerFailure = reason;
      throw new Error(reason);
    }
    // We offered plain RTP (or answer an offer): SRTP we did not ask for cannot be taken.
    if (this.srtp === 'off' && parsed.srtp) throw new Error('SDP_INVALID: RTP/SAVP on a trunk without srtp');
    switch (this.negotiation) {
      case 'initial':
        if (this.lastSent === null) {
          // Nothing offered by us yet: an INVITE that came in (the voice desk, ua/answer-call.ts)
          // carried its offer; getDescription answers it and the exchange is stable.
          this.negotiation = 'remote-offer';
          this.pendingOffer = parsed;
          return;
        }
        this.remote = parsed;
        this.known.resolve();
        return;
      case 'local-offer': // their answer to our offer
        this.negotiation = 'stable';
        this.apply(parsed);
        return;
      case 'stable': // their offer: answered (and applied) by getDescription
      case 'remote-offer':
        this.negotiation = 'remote-offer';
        // Always answered from the offer itself, even one whose o= says it is unchanged: the
        // last SDP we sent may have been our offer, with laws this offer does not hold.
        this.pendingOffer = parsed;
        return;
    }
  }

  /** sip.js after an offer it could not answer (488) or a rejected re-INVITE of ours. */
  async rollbackDescription(): Promise<void> {
    if (this.negotiation !== 'initial') this.negotiation = 'stable';
    this.pendingOffer = null;
  }

  /**
   * An UPDATE's offer (RFC 3311 §5.2; sip.js has no UPDATE, ua/update-server.ts answers it):
   * the SDP answer; 'unacceptable' (488, nothing changes); or 'pending' while an exchange is
   * open: our own offer unanswered (491) or theirs not yet answered (500).
   */
  async answerUpdate(body: string): Promise<{ sdp: string } | 'unacceptable' | 'ours-pending' | 'theirs-pending'> {
    if (this.negotiation === 'local-offer') return 'ours-pending';
    if (this.negotiation !== 'stable') return 'theirs-pending';
    try {
      await this.setDescription(body);
      return { sdp: (await this.getDescription()).body };
    } catch {
      await this.rollbackDescription();
      return 'unacceptable';
    }
  }

  /** After close(): resolves once the media port is let go and its last reports arrived. */
  released(): Promise<void> {
    return this.releasing;
  }

  sendDtmf(): boolean {
    return false; // we only receive keypad events
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.rtpPort !== null) this.releasing = this.rtpPort.release();
    this.rtpPort = null;
  }

  /** Renders our SDP; the o= version rises only when the body differs from the last one sent. */
  private send(render: (version: number) => string): string {
    let body = render(this.local!.version);
    if (this.lastSent !== null && sansOrigin(body) !== sansOrigin(this.lastSent)) body = render(++this.local!.version);
    this.lastSent = body;
    return body;
  }

  /** A completed exchange: from now on the stream sends as `peer` says. */
  private apply(peer: RemoteMedia): void {
    this.remote = peer;
    this.known.resolve();
    this.stream?.update(this.streamMedia(peer));
    this.stream?.hold(silentTowards(peer));
  }

  private streamMedia(r: RemoteMedia): StreamMedia {
    return {
      remote: { address: r.address, port: r.port },
      codec: r.codec,
      payloadType: r.payloadType,
      telephoneEventPts: r.telephoneEventPt === null ? [] : [r.telephoneEventPt],
      ...(this.srtpKey && r.srtp ? { srtp: { send: this.srtpKey, receive: r.srtp.key } } : {}),
    };
  }
}

/** A promise and the function that resolves it. */
function settleOnce(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const sdp = (body: string): BodyAndContentType => ({ body, contentType: 'application/sdp' });

/** They only send, or nothing (hold: RFC 3264 §8.4): we answered recvonly/inactive and must not send. */
const silentTowards = (r: RemoteMedia) => r.direction === 'sendonly' || r.direction === 'inactive';
