import type { Socket } from 'node:dgram';
import { createDtmfDetector } from './dtmf';
import { createInbandDtmfDetector } from './inband-dtmf';
import { decodeRtp, encodeRtp } from './packet';
import type { Pacer } from './pacer';
import { PAYLOAD_TYPE, TELEPHONE_EVENT_PT, type Codec } from './sdp';

export const FRAME_BYTES = 160; // 20 ms of 8 kHz G.711 (RFC 3551 §4.5.14)
export const FRAME_MS = 20;
/** G.711 digital silence (the codes for 0): µ-law 0xFF, A-law 0xD5. */
export const SILENCE: Record<Codec, number> = { PCMU: 0xff, PCMA: 0xd5 };

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
   * Plays G.711 bytes in the stream's codec; resolves when the last frame left, 'stopped' on
   * stop() or interrupt(), 'failed' when packets cannot be sent (the stream is dead then).
   */
  play(audio: Uint8Array): Promise<StreamPlayResult>;
  /** Queued audio is dropped at once (remote BYE, a key press); silence continues. */
  interrupt(): void;
  /**
   * On hold (our answer said recvonly/inactive, RFC 3264 §8.4): nothing is sent, but the
   * message plays on unheard, so a hold that never ends cannot keep the call forever. The
   * RTP clock runs on, and the first packet after the hold carries the marker.
   */
  hold(onHold: boolean): void;
  /** Stops sending and closes the socket. */
  stop(): void;
}

export type StreamPlayResult = 'played' | 'stopped' | 'failed';

export interface RtpStreamOptions {
  socket: Socket;
  remote: { address: string; port: number };
  codec: Codec;
  /** Payload types that carry telephone-events towards us. */
  telephoneEventPts: number[];
  onDigit(digit: string): void;
  /** Per-packet send times in ms (performance.now), for the pacing benchmark. */
  onPacketSent?: (at: number) => void;
  /** Sending failed (e.g. a port the far end's SDP should never have named): the stream stopped. */
  onFailed?: (error: unknown) => void;
  pacer: Pacer;
}

export function startRtpStream(o: RtpStreamOptions): RtpStream {
  const pt = PAYLOAD_TYPE[o.codec];
  const ssrc = (Math.random() * 0x100000000) >>> 0;
  // RFC 3550 §5.1: random initial sequence number and timestamp.
  let sequence = (Math.random() * 0x10000) | 0;
  let timestamp = (Math.random() * 0x100000000) >>> 0;
  let marker = true;
  let remote = o.remote;
  let latched = false;
  const silence = new Uint8Array(FRAME_BYTES).fill(SILENCE[o.codec]);
  const queue: { audio: Uint8Array; offset: number; done: (r: StreamPlayResult) => void }[] = [];
  const dtmf = createDtmfDetector();
  const tePts = new Set([TELEPHONE_EVENT_PT, ...o.telephoneEventPts]);
  // No telephone-event negotiated: the far end can only send keys as tones in its audio.
  const tones = o.telephoneEventPts.length === 0 ? createInbandDtmfDetector(o.codec) : null;
  let stopped = false;
  let failed = false;
  let held = false;

  o.socket.on('message', (data, rinfo) => {
    if (!latched) {
      latched = true;
      remote = { address: rinfo.address, port: rinfo.port };
    }
    const p = decodeRtp(data);
    if (!p) return;
    if (tones && p.payloadType === pt) {
      const tone = tones.push(p.payload);
      if (tone) o.onDigit(tone);
      return;
    }
    if (!tePts.has(p.payloadType)) return;
    const digit = dtmf.push(p.timestamp, p.payload);
    if (digit) o.onDigit(digit);
  });

  const nextFrame = (): Uint8Array => {
    const head = queue[0];
    if (!head) return silence;
    const frame = new Uint8Array(FRAME_BYTES).fill(SILENCE[o.codec]);
    frame.set(head.audio.subarray(head.offset, head.offset + FRAME_BYTES));
    head.offset += FRAME_BYTES;
    if (head.offset >= head.audio.length) {
      queue.shift();
      // Resolve after this frame is on the wire (below), not before.
      queueMicrotask(() => head.done('played'));
    }
    return frame;
  };

  const sendOne = () => {
    const packet = encodeRtp({ payloadType: pt, marker, sequence, timestamp, ssrc }, nextFrame());
    marker = false; // RFC 3551 §4.1: set on the first packet of a talkspurt only
    sequence = (sequence + 1) & 0xffff;
    timestamp = (timestamp + FRAME_BYTES) >>> 0;
    o.socket.send(packet, remote.port, remote.address);
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
    codec: o.codec,
    play(audio) {
      if (failed) return Promise.resolve('failed');
      if (stopped) return Promise.resolve('stopped');
      if (audio.length === 0) return Promise.resolve('played');
      return new Promise((done) => queue.push({ audio, offset: 0, done }));
    },
    interrupt: () => flush('stopped'),
    hold(onHold) {
      if (held && !onHold) marker = true; // a new talkspurt (RFC 3551 §4.1)
      held = onHold;
    },
    stop() {
      if (stopped) return;
      stopped = true;
      remove();
      flush('stopped');
      o.socket.close();
    },
  };
}
