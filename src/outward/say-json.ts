/**
 * `say --json`: the WAV written, how long it plays, and the speech language (`fallbacks`:
 * times espeak-ng spoke because piper failed). Fields may be added, never renamed.
 */
export function sayJson(out: string, durationMs: number, sampleRate: number, language: string, fallbacks: number) {
  return { out, duration_ms: durationMs, sample_rate: sampleRate, language, fallbacks };
}
