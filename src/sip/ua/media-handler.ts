import type { BodyAndContentType, SessionDescriptionHandler } from 'sip.js';
import type { RtpEngine, RtpPort, RtpStreamHandle } from '../rtp/engine';
import { answer, offer, parseRemote, type LocalMedia, type RemoteMedia } from '../rtp/sdp';

/**
 * sip.js's SessionDescriptionHandler for a server: plain SDP and our own RTP (a port and
 * stream in the RTP worker, rtp/engine.ts) instead of WebRTC. The INVITE carries our
 * offer; the 200 OK's answer says where and in which law to send. A later offer from the
 * peer (re-INVITE, e.g. hold) is answered with the codec already in use and the mirrored
 * direction (RFC 3264 §8, RFC 6337 §5.3).
 */
export class MediaHandler implements SessionDescriptionHandler {
  private rtpPort: RtpPort | null = null;
  private local: LocalMedia | null = null;
  private remote: RemoteMedia | null = null;
  private pendingOffer: RemoteMedia | null = null;
  private stream: RtpStreamHandle | null = null;
  private closed = false;
  private releasing: Promise<void> = Promise.resolve();
  private confirmed = false;

  constructor(
    private readonly rtp: RtpEngine,
    private readonly address: string,
  ) {}

  /** The 200 OK arrived: SDP from now on is an offer from the peer (re-INVITE). */
  confirm(): void {
    this.confirmed = true;
  }

  /** Where and how to send, once the answer arrived; null before. */
  remoteMedia(): RemoteMedia | null {
    return this.remote;
  }

  /** Starts the continuous RTP stream (call after the 200 OK). */
  startStream(opts: { onDigit(d: string): void; onPacketSent?: (at: number) => void }): RtpStreamHandle {
    if (this.rtpPort === null || !this.remote) throw new Error('media not negotiated');
    this.stream ??= this.rtpPort.start({
      remote: { address: this.remote.address, port: this.remote.port },
      codec: this.remote.codec,
      telephoneEventPts: this.remote.telephoneEventPt === null ? [] : [this.remote.telephoneEventPt],
      ...opts,
    });
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
      this.local = { address: this.address, port: taken.port, sessionId: Date.now() % 1e9, version: 1 };
    }
    if (this.pendingOffer) {
      // Answering the peer's offer: each new SDP we send bumps o= version (RFC 3264 §8).
      this.local!.version++;
      const body = answer(this.local!, this.pendingOffer);
      this.remote = { ...this.pendingOffer, codec: this.remote?.codec ?? this.pendingOffer.codec };
      // They hold us (sendonly/inactive): we answered recvonly/inactive, so we must not send.
      this.stream?.hold(this.pendingOffer.direction === 'sendonly' || this.pendingOffer.direction === 'inactive');
      this.pendingOffer = null;
      return { body, contentType: 'application/sdp' };
    }
    return { body: offer(this.local!), contentType: 'application/sdp' };
  }

  hasDescription(contentType: string): boolean {
    return contentType === 'application/sdp';
  }

  async setDescription(sdp: string): Promise<void> {
    const parsed = parseRemote(sdp);
    if ('code' in parsed) throw new Error(`${parsed.code}: ${parsed.reason}`);
    if (!this.confirmed) {
      // Until the 200 is in, every SDP answers our INVITE's offer (a 183's, then the 200's,
      // which wins: forked early media may come from elsewhere).
      this.remote = parsed;
      return;
    }
    // The same description again (same o= id and version) changes nothing (RFC 3264 §8).
    if (parsed.origin !== '' && parsed.origin === this.remote?.origin) return;
    this.pendingOffer = parsed; // an offer in a re-INVITE: answered by getDescription
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
}
