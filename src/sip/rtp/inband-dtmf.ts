import { decodeAlaw, decodeUlaw } from '../../g711';
import type { Codec } from './sdp';

/**
 * Keypad digits sent as tones in the audio itself (ITU-T Q.23), for a far end that offered
 * no telephone-event (RFC 4733) and no INFO: one low (row) and one high (column) tone.
 *
 * Each 20 ms packet (160 samples) goes through the Goertzel filter at the eight DTMF
 * frequencies. A block holds a digit when the strongest row and column tones carry most of
 * its energy (speech and music spread theirs), neither is far weaker than the other (twist),
 * each stands well above its group's runner-up, and the level is above a floor. A digit is
 * reported once per key press: after two blocks in a row agree (Q.24 tones last ≥ 40 ms),
 * and not again until a block without it.
 */
const ROWS = [697, 770, 852, 941];
const COLS = [1209, 1336, 1477, 1633];
const KEYS = ['123A', '456B', '789C', '*0#D'];
const RATE = 8000;
/** Share of the block's energy both tones must carry together (a pure pair: ~1). */
const MIN_TONE_SHARE = 0.7;
/** Each tone's share at least this (≈ 7 dB twist between row and column). */
const MIN_EACH = 0.15;
/** The runner-up in a group at most this share of the winner's power. */
const MAX_RUNNER_UP = 0.2;
/** Mean square below this (≈ −45 dBm0) is line noise, not a key. */
const MIN_MEAN_SQUARE = 100 * 100;

const coefficient = (f: number) => 2 * Math.cos((2 * Math.PI * f) / RATE);

/** Goertzel power at a frequency (given its 2·cos ω coefficient) over the block. */
function power(samples: Int16Array, coefficient: number): number {
  let s1 = 0;
  let s2 = 0;
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i]! + coefficient * s1 - s2;
    s2 = s1;
    s1 = s;
  }
  return s1 * s1 + s2 * s2 - coefficient * s1 * s2;
}

/** The digit a block of linear samples holds, or null. */
export function blockDigit(samples: Int16Array): string | null {
  const n = samples.length;
  let energy = 0;
  for (let i = 0; i < n; i++) energy += samples[i]! * samples[i]!;
  if (n === 0 || energy / n < MIN_MEAN_SQUARE) return null;
  // A pure tone of amplitude A: Goertzel power (A·N/2)², energy N·A²/2; share = power·2/(N·energy).
  const share = (p: number) => (p * 2) / (n * energy);
  const pick = (freqs: number[]) => {
    const ps = freqs.map((f) => power(samples, coefficient(f)));
    const order = ps.map((p, i) => [p, i] as const).sort((a, b) => b[0] - a[0]);
    return { index: order[0]![1], share: share(order[0]![0]), runnerUp: order[1]![0] / (order[0]![0] || 1) };
  };
  const row = pick(ROWS);
  const col = pick(COLS);
  if (row.share + col.share < MIN_TONE_SHARE || row.share < MIN_EACH || col.share < MIN_EACH) return null;
  if (row.runnerUp > MAX_RUNNER_UP || col.runnerUp > MAX_RUNNER_UP) return null;
  return KEYS[row.index]![col.index]!;
}

export interface InbandDtmfDetector {
  /** Feeds one packet's G.711 payload; returns the digit when a new key press is heard. */
  push(payload: Uint8Array): string | null;
}

export function createInbandDtmfDetector(codec: Codec): InbandDtmfDetector {
  const decode = codec === 'PCMA' ? decodeAlaw : decodeUlaw;
  let previous: string | null = null;
  let reported: string | null = null;
  return {
    push(payload) {
      const digit = blockDigit(decode(payload));
      const confirmed = digit !== null && digit === previous;
      previous = digit;
      if (digit === null || digit !== reported) reported = null; // the key was let go (or changed)
      if (!confirmed || reported === digit) return null;
      reported = digit;
      return digit;
    },
  };
}
