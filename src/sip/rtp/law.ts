import { decodeAlaw, decodeUlaw, encodeAlaw, encodeUlaw } from '../../g711';
import type { Codec } from './sdp';

/**
 * G.711 µ-law ↔ A-law, byte for byte through the linear sample (ITU-T G.711 §3): a stream
 * whose codec a re-INVITE changed mid-message (RFC 3264 §8.3.2) goes on with the audio
 * already queued in the old law, so the far end hears no gap and no noise.
 */
const ALL_CODES = Uint8Array.from({ length: 256 }, (_, i) => i);
const U_TO_A = encodeAlaw(decodeUlaw(ALL_CODES));
const A_TO_U = encodeUlaw(decodeAlaw(ALL_CODES));

/** `frame` (in law `from`) written in law `to`; the same bytes when the laws agree. */
export function inLaw(frame: Uint8Array, from: Codec, to: Codec): Uint8Array {
  if (from === to) return frame;
  const table = from === 'PCMU' ? U_TO_A : A_TO_U;
  const out = new Uint8Array(frame.length);
  for (let i = 0; i < frame.length; i++) out[i] = table[frame[i]!]!;
  return out;
}
