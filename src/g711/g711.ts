/**
 * G.711 µ-law and A-law, as in the CCITT/Sun reference code that sox also uses; like sox, the
 * 16-bit sample is rounded (not truncated) to 14 (µ) or 13 (A) bits first, clipping at the
 * top. Bit-exact with `sox -e mu-law` /
 * `-e a-law` for every 16-bit input (g711.test.ts compares all 65,536).
 * Encoding is a table lookup: a call's worth of audio encodes in about a millisecond.
 */

const SEG_U_END = [0x3f, 0x7f, 0xff, 0x1ff, 0x3ff, 0x7ff, 0xfff, 0x1fff];
const SEG_A_END = [0x1f, 0x3f, 0x7f, 0xff, 0x1ff, 0x3ff, 0x7ff, 0xfff];

function segment(value: number, ends: number[]): number {
  for (let i = 0; i < ends.length; i++) if (value <= ends[i]!) return i;
  return ends.length;
}

function linearToUlaw(sample: number): number {
  let v = Math.min(8191, (sample + 2) >> 2);
  let mask = 0xff;
  if (v < 0) {
    v = -v;
    mask = 0x7f;
  }
  if (v > 8159) v = 8159; // CLIP, 14-bit
  v += 0x84 >> 2; // BIAS
  const seg = segment(v, SEG_U_END);
  if (seg >= 8) return 0x7f ^ mask;
  return ((seg << 4) | ((v >> (seg + 1)) & 0xf)) ^ mask;
}

function linearToAlaw(sample: number): number {
  let v = Math.min(4095, (sample + 4) >> 3);
  let mask: number;
  if (v >= 0) {
    mask = 0xd5;
  } else {
    mask = 0x55;
    v = -v - 1;
  }
  const seg = segment(v, SEG_A_END);
  if (seg >= 8) return 0x7f ^ mask;
  const quant = seg < 2 ? (v >> 1) & 0xf : (v >> seg) & 0xf;
  return ((seg << 4) | quant) ^ mask;
}

function ulawToLinear(code: number): number {
  const u = ~code & 0xff;
  let t = ((u & 0x0f) << 3) + 0x84;
  t <<= (u & 0x70) >> 4;
  return u & 0x80 ? 0x84 - t : t - 0x84;
}

function alawToLinear(code: number): number {
  const a = code ^ 0x55;
  let t = (a & 0x0f) << 4;
  const seg = (a & 0x70) >> 4;
  if (seg === 0) t += 8;
  else if (seg === 1) t += 0x108;
  else t = (t + 0x108) << (seg - 1);
  return a & 0x80 ? t : -t;
}

/**
 * The encoders' tables, indexed by the sample + 32768, built on the first encode: every run of
 * the binary loads this module (a CLI command too) and filling 2 × 65,536 entries at load was
 * ~11 ms of each command's start (docs/development.md "The suite's length").
 */
let tables: { u: Uint8Array; a: Uint8Array } | null = null;

function encoderTables(): { u: Uint8Array; a: Uint8Array } {
  if (tables) return tables;
  const u = new Uint8Array(65536);
  const a = new Uint8Array(65536);
  for (let i = 0; i < 65536; i++) {
    u[i] = linearToUlaw(i - 32768);
    a[i] = linearToAlaw(i - 32768);
  }
  return (tables = { u, a });
}

export function encodeUlaw(samples: Int16Array): Uint8Array {
  const table = encoderTables().u;
  const out = new Uint8Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = table[samples[i]! + 32768]!;
  return out;
}

export function encodeAlaw(samples: Int16Array): Uint8Array {
  const table = encoderTables().a;
  const out = new Uint8Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = table[samples[i]! + 32768]!;
  return out;
}

export function decodeUlaw(codes: Uint8Array): Int16Array {
  const out = new Int16Array(codes.length);
  for (let i = 0; i < codes.length; i++) out[i] = ulawToLinear(codes[i]!);
  return out;
}

export function decodeAlaw(codes: Uint8Array): Int16Array {
  const out = new Int16Array(codes.length);
  for (let i = 0; i < codes.length; i++) out[i] = alawToLinear(codes[i]!);
  return out;
}
