/**
 * Whether a frame is voiced: speech's vowels and voiced consonants repeat the glottal pulse
 * every pitch period (2.5–18 ms, 55–400 Hz), a breath or a hiss is noise that does not repeat.
 * The measure is the normalised autocorrelation of the frame with the audio one pitch period
 * before it, at its best lag (the classic pitch detector's voicing decision: Rabiner & Schafer,
 * "Digital Processing of Speech Signals", 1978, §4.8): close to 1 for a steady vowel, near 0
 * for noise. Only frames loud enough to be voice are asked (detector.ts), and only while a run
 * of voice is not yet known to be speech, so the cost stays small.
 */
const MIN_LAG = 20; // 400 Hz at 8 kHz
const MAX_LAG = 145; // 55 Hz
/**
 * A frame whose best normalised autocorrelation reaches this is voiced. Tuned on the corpus's
 * tuning part (scripts/bench-amd): its breaths of noise peak at 0.48 (at most 0.2–0.4 in most
 * frames, the best of 125 lags of noise), its speech's vowels sit at 0.7–1.0.
 */
export const VOICED_CORRELATION = 0.6;

export interface Voicing {
  /** Feeds every frame, in order (it keeps the last MAX_LAG samples to look back into). */
  push(samples: Int16Array): void;
  /** The last frame pushed: its best normalised autocorrelation over the pitch lags (0 when silent). */
  correlation(): number;
}

export function createVoicing(): Voicing {
  // The last frame with the MAX_LAG samples before it.
  let buf = new Float64Array(0);
  let start = 0;
  return {
    push(samples) {
      const keep = Math.min(buf.length, MAX_LAG);
      const next = new Float64Array(keep + samples.length);
      next.set(buf.subarray(buf.length - keep), 0);
      for (let i = 0; i < samples.length; i++) next[keep + i] = samples[i]!;
      buf = next;
      start = keep;
    },
    correlation() {
      const n = buf.length - start;
      if (n === 0) return 0;
      let e0 = 0;
      for (let i = start; i < buf.length; i++) e0 += buf[i]! * buf[i]!;
      if (e0 === 0) return 0;
      let best = 0;
      for (let lag = MIN_LAG; lag <= Math.min(MAX_LAG, start); lag++) {
        let xy = 0;
        let e1 = 0;
        for (let i = start; i < buf.length; i++) {
          const y = buf[i - lag]!;
          xy += buf[i]! * y;
          e1 += y * y;
        }
        if (xy > 0 && e1 > 0) best = Math.max(best, xy / Math.sqrt(e0 * e1));
      }
      return best;
    },
  };
}
