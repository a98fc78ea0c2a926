import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { decodeAlaw, decodeUlaw, encodeAlaw, encodeUlaw } from './g711';

/** Every 16-bit value once, as sox would receive it. */
const ALL = Int16Array.from({ length: 65536 }, (_, i) => i - 32768);

function soxEncode(encoding: 'mu-law' | 'a-law', samples: Int16Array): Uint8Array {
  // -D: no dither, or sox adds noise when it reduces 16 to 8 bits and nothing could match.
  const r = spawnSync(
    'sox',
    ['-D', '-t', 'raw', '-r', '8000', '-e', 'signed', '-b', '16', '-c', '1', '-L', '-', '-t', 'raw', '-e', encoding, '-b', '8', '-'],
    { input: Buffer.from(samples.buffer), maxBuffer: 1 << 20 },
  );
  expect(r.status, String(r.stderr)).toBe(0);
  return new Uint8Array(r.stdout);
}

describe('G.711 against sox', () => {
  it('µ-law is bit-exact for every 16-bit sample', () => {
    expect(Buffer.from(encodeUlaw(ALL)).equals(Buffer.from(soxEncode('mu-law', ALL)))).toBe(true);
  });

  it('A-law is bit-exact for every 16-bit sample', () => {
    expect(Buffer.from(encodeAlaw(ALL)).equals(Buffer.from(soxEncode('a-law', ALL)))).toBe(true);
  });

  it('a 1 kHz tone survives encode/decode with G.711\'s ~38 dB signal-to-noise ratio', () => {
    const tone = Int16Array.from({ length: 8000 }, (_, i) => Math.round(16000 * Math.sin((2 * Math.PI * 1000 * i) / 8000)));
    for (const [enc, dec] of [
      [encodeUlaw, decodeUlaw],
      [encodeAlaw, decodeAlaw],
    ] as const) {
      const back = dec(enc(tone));
      let signal = 0;
      let noise = 0;
      for (let i = 0; i < tone.length; i++) {
        signal += tone[i]! ** 2;
        noise += (back[i]! - tone[i]!) ** 2;
      }
      expect(10 * Math.log10(signal / noise)).toBeGreaterThan(35);
    }
  });
});
