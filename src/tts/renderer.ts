/**
 * The seam between the text and an engine. Adapters (espeak-ng.ts, piper.ts) turn one
 * utterance into PCM at the engine's own rate; everything after (8 kHz, G.711, cache,
 * composition) is engine-independent.
 */

/** Mono signed 16-bit PCM. */
export interface Pcm {
  samples: Int16Array;
  sampleRate: number;
}

export interface Renderer {
  /** Engine name as configured: "espeak-ng" or "piper". */
  readonly engine: string;
  /**
   * Everything besides the text that changes the sound (engine, voice, rate, model...).
   * Two renderers with the same fingerprint MUST produce the same audio for the same text:
   * the render cache relies on it.
   */
  readonly fingerprint: string;
  /**
   * Speaks `text` literally (never parsed as options or markup). Resolves with at least one
   * sample; rejects with a SpeechError when the engine cannot run or produces nothing.
   */
  render(text: string): Promise<Pcm>;
}

export type SpeechErrorCode =
  | 'ENGINE_MISSING' // the executable is not there: a configuration problem
  | 'ENGINE_FAILED' // it ran and exited non-zero, timed out, or wrote no audio
  | 'BAD_AUDIO' // its output is not the WAV/PCM we expect
  | 'EMPTY_TEXT'; // nothing speakable is left after normalisation

/** Errors are values with a code, as everywhere in src (src/errors); `message` is one line for the operator. */
export class SpeechError extends Error {
  override readonly name = 'SpeechError';
  constructor(
    readonly code: SpeechErrorCode,
    message: string,
  ) {
    super(message);
  }
}
