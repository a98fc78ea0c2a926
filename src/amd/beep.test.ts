import { describe, expect, it } from 'vitest';
import { BEEP_FRAMES, createBeepDetector, frameTone } from './beep';
import { concat, frames, noise, silence, tone, voice } from './synth';

const changes = (signal: Int16Array) => {
  const b = createBeepDetector();
  return frames(signal).map((f, i) => [i, b.push(f)] as const).filter(([, c]) => c !== null);
};

describe('the beep detector', () => {
  it.each([400, 440, 800, 1000, 1337, 1400, 2000])('hears a steady %i Hz tone in each frame', (hz) => {
    const found = frameTone(tone(hz, 20));
    expect(Math.abs(found! - hz)).toBeLessThanOrEqual(25);
  });

  it.each([200, 300, 2600, 3200])('does not take %i Hz (outside 400–2,000 Hz) for a beep', (hz) => {
    expect(frameTone(tone(hz, 20))).toBeNull();
  });

  it('speech-like harmonics, noise and silence are not tones', () => {
    for (const f of frames(concat(voice(1000), noise(500, 4000), silence(200)))) expect(frameTone(f)).toBeNull();
  });

  it('a 150 ms tone off the frame grid is a beep; it ends at the frame after it', () => {
    const got = changes(concat(silence(10), tone(1000, 150), silence(100)));
    expect(got.map(([, c]) => c)).toEqual(['started', 'ended']);
    expect(got[1]![0]).toBe(8); // the tone lasted from 10 to 160 ms: frame 8 (160–180 ms) is the first without it
  });

  it('a 100 ms tone, and a tone that keeps changing pitch, are not beeps', () => {
    expect(changes(concat(tone(1000, 100), silence(100)))).toEqual([]);
    const warble = concat(...Array.from({ length: 10 }, (_, i) => tone(i % 2 ? 600 : 900, 40)));
    expect(changes(warble)).toEqual([]);
    expect(BEEP_FRAMES * 20).toBeLessThanOrEqual(150);
  });

  it('quiet tones below the floor are not beeps', () => {
    expect(changes(tone(1000, 500, 50))).toEqual([]);
  });
});
