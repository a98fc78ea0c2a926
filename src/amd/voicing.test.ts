import { describe, expect, it } from 'vitest';
import { frames, noise, silence, tone, voice } from './synth';
import { createVoicing, VOICED_CORRELATION } from './voicing';

/** The correlation of each 20 ms frame of `signal`, fed in order. */
function correlations(signal: Int16Array): number[] {
  const v = createVoicing();
  return frames(signal).map((f) => (v.push(f), v.correlation()));
}

/** A breath as the corpus makes it (scripts/lib/amd-corpus.ts): white noise through a one-pole low-pass. */
function breath(ms: number, amplitude: number): Int16Array {
  const white = noise(ms, amplitude, 11);
  const out = new Int16Array(white.length);
  let y = 0;
  for (let i = 0; i < out.length; i++) {
    y = 0.7 * y + 0.3 * white[i]!;
    out[i] = Math.round(2 * y);
  }
  return out;
}

describe('voicing (normalised autocorrelation at a pitch lag)', () => {
  it('a vowel is voiced from its second frame on, at pitches from a low man to a child', () => {
    for (const [from, to] of [[80, 100], [120, 180], [250, 320]] as const) {
      expect(correlations(voice(300, 6000, from, to)).slice(1).every((c) => c >= 0.9)).toBe(true);
    }
  });

  it('noise is not: white, or low-passed as a breath is', () => {
    expect(Math.max(...correlations(noise(500, 3000, 5)))).toBeLessThan(VOICED_CORRELATION);
    expect(Math.max(...correlations(breath(500, 3000)))).toBeLessThan(VOICED_CORRELATION);
  });

  it('silence is 0; a steady tone is voiced (music and beeps count as sound, as before)', () => {
    expect(correlations(silence(100))).toEqual([0, 0, 0, 0, 0]);
    expect(correlations(tone(440, 100)).slice(1).every((c) => c > 0.9)).toBe(true);
  });
});
