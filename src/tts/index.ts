import { join } from 'node:path';
import type { CallAudio, CallAudioSource } from '../call-model';
import type { Config } from '../config';
import type { Logger } from '../log';
import { bundleText, cutTo, firstSentence } from './bundle';
import { composeCall, toCallAudio } from './compose';
import { createEspeakRenderer } from './espeak-ng';
import { LANGUAGES, languageOf, type Language } from './language';
import { normalizeText } from './normalize';
import { createPiperRenderer } from './piper';
import { createRenderCache, type RenderCacheStats } from './render-cache';
import { SpeechError } from './renderer';
import { createCachedSpeaker, createFallbackSpeaker, type TelephoneSpeaker } from './speaker';

export { checkSpeechEngine, type SpeechEngineCheck } from './engine-check';
export { SpeechError, type SpeechErrorCode, type Pcm, type Renderer } from './renderer';
export { decodeUlaw, decodeAlaw, encodeUlaw, encodeAlaw } from './g711';
export { writeWav, readWav } from './wav';
export { normalizeText } from './normalize';
export { TELEPHONE_RATE } from './resample';

export interface SpeechDeps {
  log: Logger;
  /** dirname(config.store.path); the render cache lives in `<dataDir>/tts-cache`. */
  dataDir: string;
}

export interface SpeechStats {
  /** Utterances espeak-ng spoke because piper failed (0 with engine "espeak-ng"). */
  fallbacks: number;
  cache: RenderCacheStats;
}

/**
 * The CallAudioSource the dialer plays, plus counters for health output. forMessage rejects
 * with SpeechError EMPTY_TEXT when nothing speakable is left of the message (never silence),
 * and with ENGINE_FAILED / ENGINE_MISSING when espeak-ng or sox cannot run.
 */
export interface SpeechSource extends CallAudioSource {
  readonly language: Language;
  stats(): SpeechStats;
}

export function createCallAudioSource(config: Config, deps: SpeechDeps): SpeechSource {
  const tts = config.tts;
  const language = languageOf(tts.voice, tts.language);
  const words = LANGUAGES[language];
  const cache = createRenderCache({
    dir: join(deps.dataDir, 'tts-cache'),
    maxBytes: Math.round(tts.cache_max_mb * 1024 * 1024),
    log: deps.log,
  });
  const espeak = createCachedSpeaker(
    createEspeakRenderer({ binary: tts.espeak_binary, voice: tts.voice, speedWpm: tts.speed_wpm, pitch: tts.pitch, gapMs: tts.gap_ms }),
    tts.sox_binary,
    cache,
  );
  let speaker: TelephoneSpeaker = espeak;
  let fallbacks = () => 0;
  if (tts.engine === 'piper') {
    const piper = createCachedSpeaker(
      createPiperRenderer({ binary: tts.piper.binary, model: tts.piper.model, speaker: tts.piper.speaker, lengthScale: tts.piper.length_scale }),
      tts.sox_binary,
      cache,
    );
    const withFallback = createFallbackSpeaker(piper, espeak, deps.log);
    speaker = withFallback;
    fallbacks = withFallback.fallbacks;
  }

  const speakable = (text: string, what: string): string => {
    const normalized = normalizeText(text, language);
    if (!normalized) throw new SpeechError('EMPTY_TEXT', `${what} has nothing to speak after normalisation`);
    return normalized;
  };
  const intro = config.calls.intro ? normalizeText(config.calls.intro, language) : words.intro;
  const call = (message: string, repeat = config.calls.repeat) =>
    composeCall(speaker, { intro, message, repeat, closing: words.closing, pauseMs: tts.pause_ms });
  // A bundle leaves room for the keypad answer and the confirmation within max_call_s.
  const bundleBudgetMs = config.calls.max_call_s * 1000 * 0.8;

  return {
    language,
    async forMessage(message: string): Promise<CallAudio> {
      return call(speakable(message, 'the alert message'));
    },
    async forBundle(messages: string[]): Promise<CallAudio> {
      const texts = messages.map((m, i) => speakable(m, `alert ${i + 1} of the bundle`));
      // Whole texts first; if the call would run past calls.max_call_s, each alert's first
      // sentence; then said once; then each cut to fit. Every alert is always named.
      const whole = await call(bundleText(words, texts));
      if (whole.durationMs <= bundleBudgetMs) return whole;
      const short = bundleText(words, texts, firstSentence);
      const shortCall = await call(short);
      if (shortCall.durationMs <= bundleBudgetMs) return shortCall;
      const once = await call(short, 1);
      if (once.durationMs <= bundleBudgetMs) return once;
      const perAlert = Math.max(20, Math.floor((short.length * bundleBudgetMs) / once.durationMs / texts.length) - 15);
      return call(bundleText(words, texts, (m) => cutTo(firstSentence(m), perAlert)), 1);
    },
    async acknowledged(): Promise<CallAudio> {
      return toCallAudio(await speaker.speak(words.acknowledged));
    },
    stats: () => ({ fallbacks: fallbacks(), cache: cache.stats() }),
  };
}
