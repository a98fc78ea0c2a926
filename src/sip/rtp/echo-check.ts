/**
 * What came back of what we sent (docs/telephony.md "Voice-path self-test", `expect = "echo"`): the
 * stream notes each played frame's payload as it leaves, and each payload that arrives is
 * looked up among them. A payload counts as returned when it equals one we sent later than
 * the last one counted, so duplicates, and frames that overtook a later one, never count:
 * `returned` is a count of our frames received back in order.
 *
 * Payloads are compared exactly (G.711 bytes survive an echo unchanged: a PBX that decodes
 * and re-encodes in the same law gives the same bytes). Only played frames are noted, never
 * the silence between them (every silent frame looks alike), so the signal played must have
 * distinct frames (src/self-test/signal.ts: noise).
 */
export interface EchoCheck {
  /** A played frame's payload left, as sent (after any law conversion). */
  sent(payload: Uint8Array): void;
  /** A payload arrived in the codec's payload type. */
  received(payload: Uint8Array): void;
  counts(): EchoCounts;
}

export interface EchoCounts {
  /** Played frames sent. */
  frames: number;
  /** Of those, received back in order. */
  returned: number;
}

/** A bound on what one check remembers: ten minutes of 20 ms frames. */
const MAX_FRAMES = 30_000;

const keyOf = (payload: Uint8Array) => Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength).toString('latin1');

export function createEchoCheck(): EchoCheck {
  /** Payload -> the index it was first sent at. */
  const index = new Map<string, number>();
  let frames = 0;
  let returned = 0;
  let lastMatched = -1;
  return {
    sent(payload) {
      if (frames >= MAX_FRAMES) return;
      const key = keyOf(payload);
      if (!index.has(key)) index.set(key, frames);
      frames++;
    },
    received(payload) {
      const at = index.get(keyOf(payload));
      if (at === undefined || at <= lastMatched) return;
      lastMatched = at;
      returned++;
    },
    counts: () => ({ frames, returned }),
  };
}

/**
 * One stream's media as it ended, reported when its port is released: what the self-test
 * judges "our RTP flowed" and the echo by.
 */
export interface MediaReport {
  /** RTP packets sent (silence included). */
  packetsSent: number;
  /** Of those, the frames of what was played (not the silence around it). */
  framesPlayed: number;
  /** RTP packets that arrived (and, with SRTP, authenticated). */
  packetsReceived: number;
  /** Present when the stream was started with an echo check. */
  echo: EchoCounts | null;
}
