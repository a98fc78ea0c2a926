import type { Socket } from 'node:dgram';
import { createDtmfDetector } from './dtmf';
import { createInbandDtmfDetector } from './inband-dtmf';
import { decodeRtp, encodeRtp } from './packet';
import type { Pacer } from './pacer';
import { inLaw } from './law';
import { TELEPHONE_EVENT_PT, type Codec } from './sdp';
import { createEchoCheck, type MediaReport } from './echo-check';
import { createAmdDetector, type AmdDetector, type AmdTimings, type AmdUpdate } from '../../amd';
import { decodeAlaw, decodeUlaw } from '../../g711';
import { createSrtpReceiver, createSrtpSender, type SrtpReceiver, type SrtpSender } from './srtp';

export const FRAME_BYTES = 160; // 20 ms of 8 kHz G.711 (RFC 3551 §4.5.14)
export const FRAME_MS = 20;
/** G.711 digital silence (the codes for 0): µ-law 0xFF, A-law 0xD5. */
export const SILENCE: Record<Codec, number> = { PCMU: 0xff, PCMA: 0xd5 };
/** 20 ms of linear silence: what the analysis hears while no packet comes. */
const SILENT_PCM = new Int16Array(FRAME_BYTES);
/** Packets may lag the clock this much (jitter, a burst) before the gap counts as silence. */
const ANALYSIS_LAG_FRAMES = 5;
const SILENT_FRAME: Record<Codec, Uint8Array> = {
  PCMU: new Uint8Array(FRAME_BYTES).fill(SILENCE.PCMU),
  PCMA: new Uint8Array(FRAME_BYTES).fill(SILENCE.PCMA),
};

/**
 * One call's audio: a continuous 20 ms packet stream from the moment it starts, silence
 * when nothing is queued, so the far end hears no gaps and its jitter buffer stays still.
 *
 * Pacing follows a monotonic schedule: packet n is due at start + n·20 ms, and a late tick
 * sends every packet that is due, so timer jitter never accumulates into drift. The ticks
 * come from one pacer per thread (pacer.ts), not one timer per call.
 * Symmetric RTP (RFC 4961): we send from the socket we receive on, and follow the source
 * address of the first packet that arrives (a NAT in between rewrites it).
 */
export interface RtpStream {
  readonly codec: Codec;
  /**
   * Plays G.711 bytes written in `law`; each frame leaves in the codec in use when it is
   * sent (a re-INVITE may change it mid-message: law.ts). Resolves when the last frame
   * left, 'stopped' on stop() or interrupt(), 'failed' when packets cannot be sent.
   */
  play(audio: Uint8Array, law: Codec): Promise<StreamPlayResult>;
  /**
   * A new offer/answer was accepted (re-INVITE, its ACK, UPDATE; RFC 3264 §8): from the next
   * packet on, send there, in that codec and payload type. Sequence number, timestamp and
   * SSRC run on (RFC 3550 §5.1: one source, one clock), so the far end hears no gap. The
   * address is latched again from the first packet of the new source (RFC 4961).
   */
  update(media: StreamMedia): void;
  /** Queued audio is dropped at once (remote BYE, a key press); silence continues. */
  interrupt(): void;
  /**
   * On hold (our answer said recvonly/inactive, RFC 3264 §8.4): nothing is sent, but the
   * message plays on unheard, so a hold that never ends cannot keep the call forever. The
   * RTP clock runs on, and the first packet after the hold carries the marker.
   */
  hold(onHold: boolean): void;
  /** A keypad digit reached the call (any path: RFC 4733, INFO, tones): a person, if the analysis still runs. */
  analysisKey(): void;
  /** Stops sending and closes the socket. */
  stop(): void;
  /** Packets sent and received so far, and with `echoCheck` what came back (echo-check.ts). */
  report(): MediaReport;
}

export type StreamPlayResult = 'played' | 'stopped' | 'failed';

/** Where and how the stream sends: what the current offer/answer says. */
export interface StreamMedia {
  remote: { address: string; port: number };
  codec: Codec;
  /** The payload type the peer's SDP gave `codec` (0 or 8 unless it mapped it dynamically). */
  payloadType: number;
  /** Payload types that carry telephone-events towards us. */
  telephoneEventPts: number[];
  /**
   * SRTP (srtp.ts) keys from the SDES exchange (sdp.ts): ours protects what we send, theirs
   * opens what arrives. Absent: plain RTP.
   */
  srtp?: { send: Uint8Array; receive: Uint8Array } | null;
}

export interface RtpStreamOptions extends StreamMedia {
  socket: Socket;
  onDigit(digit: string): void;
  /** Per-packet send times in ms (performance.now), for the pacing benchmark. */
  onPacketSent?: (at: number) => void;
  /** Sending failed (e.g. a port the far end's SDP should never have named): the stream stopped. */
  onFailed?: (error: unknown) => void;
  pacer: Pacer;
  /** Note played frames and count those that come back (the voice-path self-test, echo-check.ts). */
  echoCheck?: boolean;
  /**
   * Voicemail detection (src/amd): the callee's audio from the start of the stream is analysed
   * with these timings and every change reported to `onAmd`. Absent: no analysis.
   */
  amd?: AmdTimings | null;
  onAmd?: (update: AmdUpdate) => void;
}

export function startRtpStream(o: RtpStreamOptions): RtpStream {
  let media: StreamMedia = { remote: o.remote, codec: o.codec, payloadType: o.payloadType, telephoneEventPts: o.telephoneEventPts, srtp: o.srtp ?? null };
  let srtpOut: SrtpSender | null = media.srtp ? createSrtpSender(media.srtp.send) : null;
  let srtpIn: SrtpReceiver | null = media.srtp ? createSrtpReceiver(media.srtp.receive) : null;
  const ssrc = (Math.random() * 0x100000000) >>> 0;
  // RFC 3550 §5.1: random initial sequence number and timestamp.
  let sequence = (Math.random() * 0x10000) | 0;
  let timestamp = (Math.random() * 0x100000000) >>> 0;
  let marker = true;
  let remote = o.remote;
  let latched = false;
  /** Sources we no longer latch to: the ones in use before the last update(). */
  let formerSources = new Set<string>();
  const queue: { audio: Uint8Array; law: Codec; offset: number; done: (r: StreamPlayResult) => void }[] = [];
  const dtmf = createDtmfDetector();
  let tePts = new Set([TELEPHONE_EVENT_PT, ...o.telephoneEventPts]);
  // No telephone-event negotiated: the far end can only send keys as tones in its audio.
  const tonesFor = (m: StreamMedia) => (m.telephoneEventPts.length === 0 ? createInbandDtmfDetector(m.codec) : null);
  let tones = tonesFor(media);
  let stopped = false;
  let failed = false;
  let held = false;
  let packetsSent = 0;
  let framesPlayed = 0;
  let packetsReceived = 0;
  const echo = o.echoCheck ? createEchoCheck() : null;
  // Fed every packet of the codec in use. A far end that sends nothing (no RTP yet, silence
  // suppression, a stream that stopped) is heard as silence: once packets lag the clock by
  // ANALYSIS_LAG_FRAMES, silent frames fill the gap, so initial_silence_ms and
  // after_greeting_silence_ms run on time.
  let analysis: AmdDetector | null = o.amd ? createAmdDetector(o.amd) : null;
  let analysedFrames = 0;
  const analysed = (updates: AmdUpdate[]) => {
    for (const u of updates) o.onAmd?.(u);
    if (analysis?.done) analysis = null;
  };

  o.socket.on('message', (data, rinfo) => {
    let packet: Uint8Array = data;
    if (srtpIn) {
      // Only a packet that authenticates counts (RFC 3711 §3.3): anything else, a forged
      // source included, is dropped before it could move where we send.
      const opened = srtpIn.unprotect(data);
      if (typeof opened === 'string') return;
      packet = opened;
    }
    if (!latched && !formerSources.has(`${rinfo.address} ${rinfo.port}`)) {
      latched = true;
      remote = { address: rinfo.address, port: rinfo.port };
    }
    const p = decodeRtp(packet);
    if (!p) return;
    packetsReceived++;
    if (echo && p.payloadType === media.payloadType) echo.received(p.payload);
    if (analysis && p.payloadType === media.payloadType) {
      analysedFrames += p.payload.length / FRAME_BYTES;
      analysed(analysis.push((media.codec === 'PCMA' ? decodeAlaw : decodeUlaw)(p.payload)));
    }
    if (tones && p.payloadType === media.payloadType) {
      const tone = tones.push(p.payload);
      if (tone) o.onDigit(tone);
      return;
    }
    if (!tePts.has(p.payloadType)) return;
    const digit = dtmf.push(p.timestamp, p.payload);
    if (digit) o.onDigit(digit);
  });

  /** The next 20 ms; `played`: it came from a play() (not the silence between them). */
  let played = false;
  const nextFrame = (): Uint8Array => {
    const head = queue[0];
    const law = media.codec;
    played = head !== undefined;
    if (!head) return SILENT_FRAME[law];
    const frame = new Uint8Array(FRAME_BYTES).fill(SILENCE[law]);
    frame.set(inLaw(head.audio.subarray(head.offset, head.offset + FRAME_BYTES), head.law, law));
    head.offset += FRAME_BYTES;
    if (head.offset >= head.audio.length) {
      queue.shift();
      // Resolve after this frame is on the wire (below), not before.
      queueMicrotask(() => head.done('played'));
    }
    return frame;
  };

  const sendOne = () => {
    const frame = nextFrame();
    if (played) {
      framesPlayed++;
      echo?.sent(frame);
    }
    const rtp = encodeRtp({ payloadType: media.payloadType, marker, sequence, timestamp, ssrc }, frame);
    const packet = srtpOut ? srtpOut.protect(rtp) : rtp;
    marker = false; // RFC 3551 §4.1: set on the first packet of a talkspurt only
    sequence = (sequence + 1) & 0xffff;
    timestamp = (timestamp + FRAME_BYTES) >>> 0;
    o.socket.send(packet, remote.port, remote.address);
    packetsSent++;
    o.onPacketSent?.(performance.now());
  };

  const pacer = o.pacer;
  const start = pacer.nextTick();
  let n = 0;
  // A tick may land a fraction of a millisecond before its grid instant (timer rounding):
  // count a packet due within that slack as due, or it would wait a whole period.
  const SLACK_MS = 2;
  const remove = pacer.add((now) => {
    if (stopped || failed) return;
    if (analysis) {
      const due = Math.floor((now - start) / FRAME_MS) - ANALYSIS_LAG_FRAMES;
      while (analysis && analysedFrames < due) {
        analysedFrames++;
        analysed(analysis.push(SILENT_PCM));
      }
      if (analysis) analysed(analysis.clock(now - start));
    }
    try {
      while (start + n * FRAME_MS <= now + SLACK_MS) {
        if (held) {
          nextFrame(); // played unheard
          timestamp = (timestamp + FRAME_BYTES) >>> 0; // RFC 3550 §5.1: time passes unsent
        } else sendOne();
        n++;
      }
    } catch (e) {
      // It would fail again at every tick: stop here, once, and let the call know.
      failed = true;
      remove();
      flush('failed');
      o.onFailed?.(e);
    }
  });

  const flush = (r: StreamPlayResult) => {
    for (const q of queue.splice(0)) q.done(r);
  };

  return {
    get codec() {
      return media.codec;
    },
    play(audio, law) {
      if (failed) return Promise.resolve('failed');
      if (stopped) return Promise.resolve('stopped');
      if (audio.length === 0) return Promise.resolve('played');
      return new Promise((done) => queue.push({ audio, law, offset: 0, done }));
    },
    update(next) {
      const moved = next.remote.address !== media.remote.address || next.remote.port !== media.remote.port;
      if (moved) {
        formerSources = new Set([`${media.remote.address} ${media.remote.port}`, `${remote.address} ${remote.port}`]);
        remote = next.remote;
        latched = false;
      }
      // A changed codec or telephone-event offer changes how keys arrive (and in which law).
      if (next.codec !== media.codec || next.telephoneEventPts.length !== media.telephoneEventPts.length) tones = tonesFor(next);
      // New SDES keys (RFC 4568 §7.1.4: a new offer may rekey): new contexts; the same keys keep theirs.
      const keys = next.srtp ?? null;
      if (!sameBytes(keys?.send, media.srtp?.send)) srtpOut = keys ? createSrtpSender(keys.send) : null;
      if (!sameBytes(keys?.receive, media.srtp?.receive)) srtpIn = keys ? createSrtpReceiver(keys.receive) : null;
      media = { ...next, srtp: keys };
      tePts = new Set([TELEPHONE_EVENT_PT, ...next.telephoneEventPts]);
    },
    interrupt: () => flush('stopped'),
    analysisKey: () => analysis && analysed(analysis.key()),
    hold(onHold) {
      if (held && !onHold) marker = true; // a new talkspurt (RFC 3551 §4.1)
      held = onHold;
    },
    report: () => ({ packetsSent, framesPlayed, packetsReceived, echo: echo?.counts() ?? null }),
    stop() {
      if (stopped) return;
      stopped = true;
      remove();
      flush('stopped');
      o.socket.close();
    },
  };
}

const sameBytes = (a: Uint8Array | undefined, b: Uint8Array | undefined) =>
  a === b || (a !== undefined && b !== undefined && Buffer.from(a).equals(Buffer.from(b)));
