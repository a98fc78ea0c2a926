/**
 * A mailbox's beep: one steady tone between 400 and 2,000 Hz lasting at least 150 ms. Speech
 * spreads its energy over many harmonics whose pitch moves from one 20 ms frame to the next;
 * a beep puts nearly all of it at one frequency that stays put.
 *
 * Per frame: the zero-crossing count estimates the frequency (a pure tone of f Hz crosses zero
 * 2·f·N/8000 times in N samples); the Goertzel filter (as in sip/rtp/inband-dtmf.ts) measures
 * the power at a few 25 Hz steps around that estimate, and the frame is a tone when the best one
 * carries most of the frame's energy. A beep is confirmed once enough frames in a row hold a
 * tone within one step of where it started, and ends at the first frame without it.
 */
const RATE = 8000;
const LOW_HZ = 400;
const HIGH_HZ = 2000;
const STEP_HZ = 25;
/** Share of the frame's energy the tone must carry (a pure tone ≥ 0.81 even halfway between steps). */
const MIN_SHARE = 0.7;
/** Below this mean square the frame is too quiet to be a beep (same floor as the DTMF detector). */
const MIN_MEAN_SQUARE = 100 * 100;
/**
 * Whole 20 ms frames a tone of 150 ms always fills, however it falls on the frame grid
 * (150 / 20 = 7.5, and the frames at its two edges are part silence and may not count: 6).
 */
export const BEEP_FRAMES = 6;

function goertzelShare(samples: Int16Array, hz: number, energy: number): number {
  const c = 2 * Math.cos((2 * Math.PI * hz) / RATE);
  let s1 = 0;
  let s2 = 0;
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i]! + c * s1 - s2;
    s2 = s1;
    s1 = s;
  }
  const power = s1 * s1 + s2 * s2 - c * s1 * s2;
  // A pure tone of amplitude A: power (A·N/2)², energy N·A²/2 (inband-dtmf.ts).
  return (power * 2) / (samples.length * energy);
}

/** The frequency of the tone the frame holds (to STEP_HZ), or null. */
export function frameTone(samples: Int16Array): number | null {
  const n = samples.length;
  if (n === 0) return null;
  let energy = 0;
  let crossings = 0;
  for (let i = 0; i < n; i++) {
    const s = samples[i]!;
    energy += s * s;
    if (i > 0 && (s >= 0) !== (samples[i - 1]! >= 0)) crossings++;
  }
  if (energy / n < MIN_MEAN_SQUARE) return null;
  const estimate = (crossings * RATE) / (2 * n);
  if (estimate < LOW_HZ - 2 * STEP_HZ || estimate > HIGH_HZ + 2 * STEP_HZ) return null;
  let best = 0;
  let bestHz = 0;
  const centre = Math.round(estimate / STEP_HZ) * STEP_HZ;
  for (let hz = centre - 3 * STEP_HZ; hz <= centre + 3 * STEP_HZ; hz += STEP_HZ) {
    if (hz < LOW_HZ || hz > HIGH_HZ) continue;
    const share = goertzelShare(samples, hz, energy);
    if (share > best) [best, bestHz] = [share, hz];
  }
  return best >= MIN_SHARE ? bestHz : null;
}

export type BeepChange = 'started' | 'ended' | null;

export interface BeepDetector {
  /** Feeds one 20 ms frame: 'started' when a beep is confirmed, 'ended' at the frame after its last. */
  push(samples: Int16Array): BeepChange;
  readonly sounding: boolean;
  /** The frequency of the beep heard last (Hz, to STEP_HZ), 0 before one. */
  readonly hz: number;
}

export function createBeepDetector(): BeepDetector {
  let runHz = 0;
  let run = 0;
  let sounding = false;
  return {
    get sounding() {
      return sounding;
    },
    get hz() {
      return runHz;
    },
    push(samples) {
      const hz = frameTone(samples);
      if (hz !== null && run > 0 && Math.abs(hz - runHz) <= STEP_HZ) run++;
      else if (hz !== null) [run, runHz] = [sounding ? 0 : 1, hz];
      else run = 0;
      if (sounding && run === 0) {
        sounding = false;
        // A tone at another frequency right after the beep starts a run of its own.
        if (hz !== null) [run, runHz] = [1, hz];
        return 'ended';
      }
      if (!sounding && run >= BEEP_FRAMES) {
        sounding = true;
        return 'started';
      }
      return null;
    },
  };
}
