import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createInbandDtmfDetector } from './inband-dtmf';
import type { Codec } from './sdp';

/** Real tone audio from sox (two sines mixed, 10 dB down), as G.711 bytes. */
function soxTone(codec: Codec, seconds: number, ...freqs: number[]): Uint8Array {
  const encoding = codec === 'PCMA' ? 'a-law' : 'u-law';
  const synth = freqs.length === 0 ? ['trim', '0', String(seconds)] : freqs.flatMap((f, i) => ['synth', String(seconds), 'sine', ...(i ? ['mix'] : []), String(f)]);
  return new Uint8Array(execFileSync('sox', ['-n', '-r', '8000', '-c', '1', '-e', encoding, '-t', 'raw', '-', ...synth, 'gain', '-10']));
}

const KEY: Record<string, [number, number]> = { '1': [697, 1209], '2': [697, 1336], '3': [697, 1477], '5': [770, 1336], '#': [941, 1477] };

function heard(codec: Codec, audio: Uint8Array, offset = 0): string[] {
  const d = createInbandDtmfDetector(codec);
  const out: string[] = [];
  for (let i = offset; i + 160 <= audio.length; i += 160) {
    const digit = d.push(audio.subarray(i, i + 160));
    if (digit) out.push(digit);
  }
  return out;
}

const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.length));
  return out;
};

describe('inband DTMF (Goertzel over the far end audio)', () => {
  it.each(['PCMU', 'PCMA'] as const)('hears 1, 2, 3, 5 and # once per press in %s', (codec) => {
    const gap = soxTone(codec, 0.1);
    const press = (k: string) => soxTone(codec, 0.1, ...KEY[k]!);
    const audio = concat(gap, press('1'), gap, press('2'), gap, press('3'), gap, press('5'), gap, press('#'), gap);
    expect(heard(codec, audio)).toEqual(['1', '2', '3', '5', '#']);
    // Packets need not start with the tone: shifted by 57 samples, the same keys.
    expect(heard(codec, audio, 57)).toEqual(['1', '2', '3', '5', '#']);
  });

  it('one long press is one digit; the same key pressed twice is two', () => {
    const gap = soxTone('PCMU', 0.06);
    expect(heard('PCMU', concat(soxTone('PCMU', 1.5, 697, 1209)))).toEqual(['1']);
    expect(heard('PCMU', concat(soxTone('PCMU', 0.08, 697, 1209), gap, soxTone('PCMU', 0.08, 697, 1209)))).toEqual(['1', '1']);
  });

  it('hears nothing in a single tone, a chord of non-DTMF tones, noise, or a press shorter than 40 ms', () => {
    expect(heard('PCMU', soxTone('PCMU', 1, 1000))).toEqual([]);
    expect(heard('PCMU', soxTone('PCMU', 1, 440, 554, 659))).toEqual([]);
    expect(heard('PCMU', soxTone('PCMU', 1, 697))).toEqual([]);
    const noise = new Uint8Array(execFileSync('sox', ['-n', '-r', '8000', '-c', '1', '-e', 'u-law', '-t', 'raw', '-', 'synth', '1', 'whitenoise', 'gain', '-10']));
    expect(heard('PCMU', noise)).toEqual([]);
    expect(heard('PCMU', concat(soxTone('PCMU', 0.1), soxTone('PCMU', 0.02, 697, 1209), soxTone('PCMU', 0.1)))).toEqual([]);
  });
});
