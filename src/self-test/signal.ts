import type { CallAudio } from '../call-model';
import { encodeAlaw, encodeUlaw } from '../g711';

const SAMPLE_RATE = 8000;
const FRAME_SAMPLES = 160;

/**
 * What a self-test call plays (docs/telephony.md "Voice-path self-test"): `durationMs` of soft
 * noise, the same every time (a fixed-seed generator), so no two 20 ms frames are alike and an
 * echoed frame is recognised by its bytes (src/sip/rtp/echo-check.ts). Noise, not speech: no speech
 * engine is needed, and every frame carries energy (silence would all look alike).
 */
export function selfTestSignal(durationMs: number): CallAudio {
  const frames = Math.max(1, Math.round(durationMs / 20));
  const samples = new Int16Array(frames * FRAME_SAMPLES);
  // xorshift32: tiny, deterministic, plenty for test noise.
  let x = 0x9e3779b9;
  for (let i = 0; i < samples.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    samples[i] = ((x >>> 0) % 8001) - 4000; // about -18 dBFS: audible, never harsh
  }
  return { pcmu: encodeUlaw(samples), pcma: encodeAlaw(samples), durationMs: (samples.length / SAMPLE_RATE) * 1000 };
}

/** Frames in a signal of `durationMs`: what the RTP must carry for the self-test to pass. */
export const signalFrames = (durationMs: number) => Math.max(1, Math.round(durationMs / 20));
