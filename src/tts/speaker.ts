import { describeError, type Logger } from '../log';
import { metrics } from '../metrics/instruments';
import { cacheKey, type RenderCache } from './render-cache';
import type { Renderer } from './renderer';
import { resampleToTelephone } from './resample';

/**
 * Text (already normalised) to 8 kHz mono PCM, the form the rest of the call is built from.
 * Implementations MUST resolve with at least one sample or reject with a SpeechError.
 */
export interface TelephoneSpeaker {
  speak(text: string): Promise<Int16Array>;
}

/** One engine, resampled by sox, cached on disk under (engine settings, text). */
export function createCachedSpeaker(renderer: Renderer, soxBinary: string, cache: RenderCache): TelephoneSpeaker {
  return {
    async speak(text) {
      let rendered = false;
      const bytes = await cache.getOrCreate(cacheKey('8k-s16le', renderer.fingerprint, text), async () => {
        rendered = true;
        const stop = metrics.speechRenderSeconds.startTimer({ engine: renderer.engine });
        const pcm = await resampleToTelephone(await renderer.render(text), soxBinary);
        stop();
        return new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength);
      });
      metrics.speechCache.inc({ result: rendered ? 'miss' : 'hit' });
      return new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 1);
    },
  };
}

export interface FallbackSpeaker extends TelephoneSpeaker {
  /** How many utterances the fallback spoke because the primary failed, since start. */
  fallbacks(): number;
}

/**
 * The primary engine (piper), and when it fails at run time the fallback (espeak-ng), so the
 * call still goes out. Each fallback is logged with the primary's error and counted. The
 * fallback's audio is cached under its own engine's key, never the primary's, so a repaired
 * primary is used again at once.
 */
export function createFallbackSpeaker(primary: TelephoneSpeaker, fallback: TelephoneSpeaker, log: Logger): FallbackSpeaker {
  let count = 0;
  return {
    async speak(text) {
      try {
        return await primary.speak(text);
      } catch (e) {
        count++;
        log.warn({ error: describeError(e), fallbacks: count, chars: text.length }, 'tts: piper failed, speaking with espeak-ng instead');
        return fallback.speak(text);
      }
    },
    fallbacks: () => count,
  };
}
