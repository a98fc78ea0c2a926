/**
 * Synthetic 8 kHz signals for the detector's tests and the benchmark's sanity checks: tones,
 * silence, noise and a voice-like sound (harmonics of a pitch that glides, as speech's does).
 * Deterministic: the noise comes from a seeded generator.
 */
const RATE = 8000;

export function tone(hz: number, ms: number, amplitude = 8000): Int16Array {
  const n = Math.round((ms * RATE) / 1000);
  const out = new Int16Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / RATE));
  return out;
}

export const silence = (ms: number) => new Int16Array(Math.round((ms * RATE) / 1000));

/** Uniform white noise from a linear congruential generator seeded with `seed`. */
export function noise(ms: number, amplitude: number, seed = 1): Int16Array {
  const n = Math.round((ms * RATE) / 1000);
  const out = new Int16Array(n);
  let x = seed >>> 0;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out[i] = Math.round(((x / 0x100000000) * 2 - 1) * amplitude);
  }
  return out;
}

/** A vowel-like sound: ten harmonics of a pitch gliding from `fromHz` to `toHz`. */
export function voice(ms: number, amplitude = 6000, fromHz = 120, toHz = 180): Int16Array {
  const n = Math.round((ms * RATE) / 1000);
  const out = new Int16Array(n);
  let phase = 0;
  for (let i = 0; i < n; i++) {
    const f0 = fromHz + ((toHz - fromHz) * i) / Math.max(1, n - 1);
    phase += (2 * Math.PI * f0) / RATE;
    let s = 0;
    for (let h = 1; h <= 10; h++) s += Math.sin(h * phase) / h;
    out[i] = Math.round((amplitude * s) / 2);
  }
  return out;
}

export function concat(...parts: Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The signal in 20 ms frames (160 samples; the last one shorter if it must be). */
export function frames(signal: Int16Array, size = 160): Int16Array[] {
  const out: Int16Array[] = [];
  for (let i = 0; i < signal.length; i += size) out.push(signal.subarray(i, i + size));
  return out;
}
