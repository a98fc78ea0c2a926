import * as z from 'zod';

/**
 * Speech (issue 3): which engine renders the alert text and how it sounds.
 * espeak-ng is always needed: it is the default engine and piper's fallback.
 */
export const ttsSection = z
  .object({
    /** "espeak-ng" (Debian package, always there) or "piper" (neural voice, falls back to espeak-ng). */
    engine: z.enum(['espeak-ng', 'piper']).default('espeak-ng'),
    /** espeak-ng voice (`espeak-ng --voices`); also picks the prompts' language unless `language` is set. */
    voice: z.string().regex(/^[A-Za-z0-9_+\-/]+$/, 'an espeak-ng voice name such as "tr" or "en-us"').default('tr'),
    /** Language of the fixed prompts and text normalisation; "auto": from `voice` (tr* → tr, else en). */
    language: z.enum(['auto', 'tr', 'en']).default('auto'),
    /** espeak-ng speaking rate in words per minute; slower than espeak's 175 for a phone line. */
    speed_wpm: z.number().int().min(80).max(450).default(150),
    /** espeak-ng pitch, 0–99 (espeak's own default is 50). */
    pitch: z.number().int().min(0).max(99).default(50),
    /** Extra pause between words in ms (espeak-ng -g, 10 ms steps). */
    gap_ms: z.number().int().min(0).max(1000).default(10),
    /** Silence between the parts of a call (intro, each repetition, the keypad prompt). */
    pause_ms: z.number().int().min(0).max(5000).default(1000),
    /** The espeak-ng executable (Debian package `espeak-ng`). */
    espeak_binary: z.string().min(1).default('espeak-ng'),
    /** The sox executable used to resample to 8 kHz (Debian package `sox`). */
    sox_binary: z.string().min(1).default('sox'),
    piper: z
      .object({
        /** The piper executable (release binary from the piper project; not in Debian). */
        binary: z.string().min(1).default('piper'),
        /** Voice model `.onnx`; its `.onnx.json` must lie beside it. */
        model: z.string().default(''),
        /** Speaker id for multi-speaker models; -1: the model's default. */
        speaker: z.number().int().min(-1).default(-1),
        /** Speaking time scale: > 1 slower, < 1 faster. */
        length_scale: z.number().min(0.3).max(3).default(1),
      })
      .strict()
      .prefault({}),
    /** Size cap of the render cache in `<data folder>/tts-cache`; least recently used out. */
    cache_max_mb: z.number().min(1).max(100_000).default(64),
  })
  .strict();

export type TtsConfig = z.infer<typeof ttsSection>;
