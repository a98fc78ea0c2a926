import { join } from 'node:path';
import type { CallAudio, CallAudioSource, CallContext } from '../call-model';
import type { Config } from '../config';
import type { Logger } from '../log';
import { bundleText, cutTo, firstSentence, MAX_NAMED_IN_BUNDLE } from './bundle';
import { composeCall, concatSamples, toCallAudio } from './compose';
import { createEspeakRenderer } from './espeak-ng';
import { LANGUAGES, languageOf, spokenLocalTime, spokenNumber, type Language, type LanguageWords } from './language';
import { normalizeText } from './normalize';
import { createPiperRenderer } from './piper';
import { createRenderCache, type RenderCacheStats } from './render-cache';
import { SpeechError } from './renderer';
import { createCachedSpeaker, createFallbackSpeaker, type TelephoneSpeaker } from './speaker';

export { checkSpeechEngine, type SpeechEngineCheck } from './engine-check';
export { SpeechError, type SpeechErrorCode, type Pcm, type Renderer } from './renderer';
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
  /** Speech always has the verification call's words (docs/on-call.md "Verification"). */
  forVerification(name: string, context?: CallContext): Promise<CallAudio>;
  verified(context?: CallContext): Promise<CallAudio>;
  /** …and the hand-off call's (docs/on-call.md "Hand-off calls"). */
  forHandoff(h: { schedule: string; until: number | null; timeZone: string }, context?: CallContext): Promise<CallAudio>;
  handoffConfirmed(context?: CallContext): Promise<CallAudio>;
  /**
   * One prompt of the voice desk (docs/telephony.md "Voice desk"): the sentences as they are, each
   * normalised and rendered through the same engine and cache as calls, joined. Rejects with
   * SpeechError EMPTY_TEXT when nothing is speakable.
   */
  prompt(sentences: string[]): Promise<CallAudio>;
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

  /**
   * What a call says in one language: its words and its voice (docs/on-call.md "People": a call to
   * a person speaks the person's language). The configured language speaks with the configured
   * voice and engine and `calls.intro`; another speaks with espeak-ng's voice of that language
   * (named by its code: `tr`, `en`) at the same speed and pitch, and its own intro, so it
   * sounds exactly as `voice-alert say --voice <code>` renders it.
   */
  interface Voice {
    language: Language;
    words: LanguageWords;
    speaker: TelephoneSpeaker;
    intro: string;
  }
  const main: Voice = { language, words, speaker, intro: config.calls.intro ? normalizeText(config.calls.intro, language) : words.intro };
  const others = new Map<Language, Voice>();
  const voiceFor = (wanted?: Language): Voice => {
    if (!wanted || wanted === language) return main;
    let v = others.get(wanted);
    if (!v) {
      const speakerOf = createCachedSpeaker(
        createEspeakRenderer({ binary: tts.espeak_binary, voice: wanted, speedWpm: tts.speed_wpm, pitch: tts.pitch, gapMs: tts.gap_ms }),
        tts.sox_binary,
        cache,
      );
      v = { language: wanted, words: LANGUAGES[wanted], speaker: speakerOf, intro: LANGUAGES[wanted].intro };
      others.set(wanted, v);
    }
    return v;
  };

  const speakable = (text: string, what: string, lang: Language = language): string => {
    const normalized = normalizeText(text, lang);
    if (!normalized) throw new SpeechError('EMPTY_TEXT', `${what} has nothing to speak after normalisation`);
    return normalized;
  };
  // An escalation's later call says which call it is before the usual intro.
  const introFor = (v: Voice, context?: CallContext) =>
    context?.escalationOrdinal && context.escalationOrdinal > 1 ? `${v.words.escalationStep(context.escalationOrdinal)} ${v.intro}` : v.intro;
  /** `closing`: what ends it instead of the keypad prompt (a voicemail's last sentence), in the callee's language. */
  const call = (message: string, repeat = config.calls.repeat, context?: CallContext, closing?: (w: Voice['words']) => string) => {
    const v = voiceFor(context?.language);
    return composeCall(v.speaker, { intro: introFor(v, context), message, repeat, closing: closing ? closing(v.words) : v.words.closing, pauseMs: tts.pause_ms });
  };
  // A bundle leaves room for the keypad answer and the confirmation within max_call_s.
  const bundleBudgetMs = config.calls.max_call_s * 1000 * 0.8;

  return {
    language,
    async forMessage(message: string, context?: CallContext): Promise<CallAudio> {
      return call(speakable(message, 'the alert message', voiceFor(context?.language).language), config.calls.repeat, context);
    },
    async forBundle(messages: string[], context?: CallContext): Promise<CallAudio> {
      const { words, language: lang } = voiceFor(context?.language);
      // Only the alerts that will be named are rendered; the rest are counted (bundle.ts).
      const named = messages.slice(0, MAX_NAMED_IN_BUNDLE).map((m, i) => speakable(m, `alert ${i + 1} of the bundle`, lang));
      const texts = [...named, ...messages.slice(MAX_NAMED_IN_BUNDLE)];
      // Whole texts first; if the call would run past calls.max_call_s, each alert's first
      // sentence; then said once; then each cut to fit. Every alert is always named.
      const whole = await call(bundleText(words, texts), config.calls.repeat, context);
      if (whole.durationMs <= bundleBudgetMs) return whole;
      const short = bundleText(words, texts, firstSentence);
      const shortCall = await call(short, config.calls.repeat, context);
      if (shortCall.durationMs <= bundleBudgetMs) return shortCall;
      const once = await call(short, 1, context);
      if (once.durationMs <= bundleBudgetMs) return once;
      const perAlert = Math.max(20, Math.floor((short.length * bundleBudgetMs) / once.durationMs / named.length) - 15);
      return call(bundleText(words, texts, (m) => cutTo(firstSentence(m), perAlert)), 1, context);
    },
    async forVoicemail(messages: string[], context?: CallContext): Promise<CallAudio> {
      const w = voiceFor(context?.language).words;
      const text = messages.length === 1 ? speakable(messages[0]!, 'the alert message') : bundleText(w, messages.map((m, i) => (i < MAX_NAMED_IN_BUNDLE ? speakable(m, `alert ${i + 1} of the bundle`) : m)), firstSentence);
      // The desk's number, when known, tells whoever plays the box back how to act on it
      // (docs/telephony.md "Voicemail detection": voice_desk.number).
      const desk = config.voice_desk.number;
      return call(text, 1, context, (words) => (desk ? `${words.voicemail} ${words.voicemailDesk(spokenNumber(desk, words))}` : words.voicemail));
    },
    async forVerification(name: string, context?: CallContext): Promise<CallAudio> {
      const v = voiceFor(context?.language);
      // No intro (it says "alert"): the question itself says who calls and for whom.
      return composeCall(v.speaker, { intro: '', message: speakable(v.words.verifyQuestion(name), 'the verification question', v.language), repeat: config.calls.repeat, closing: v.words.verifyClosing, pauseMs: tts.pause_ms });
    },
    async forHandoff(h: { schedule: string; until: number | null; timeZone: string }, context?: CallContext): Promise<CallAudio> {
      const v = voiceFor(context?.language);
      const until = h.until === null ? null : spokenLocalTime(v.words, h.until, h.timeZone);
      return composeCall(v.speaker, { intro: '', message: speakable(v.words.handoffQuestion(h.schedule, until), 'the hand-off question', v.language), repeat: config.calls.repeat, closing: v.words.handoffClosing, pauseMs: tts.pause_ms });
    },
    async handoffConfirmed(context?: CallContext): Promise<CallAudio> {
      const v = voiceFor(context?.language);
      return toCallAudio(await v.speaker.speak(v.words.handoffConfirmed));
    },
    async verified(context?: CallContext): Promise<CallAudio> {
      return toCallAudio(await voiceFor(context?.language).speaker.speak(voiceFor(context?.language).words.verified));
    },
    async acknowledged(by?: string, context?: CallContext): Promise<CallAudio> {
      const v = voiceFor(context?.language);
      // The fixed sentence comes from the cache; the number is said digit by digit.
      const parts = [await v.speaker.speak(v.words.acknowledged)];
      if (by) parts.push(await v.speaker.speak(v.words.acknowledgedBy(by.split('').join(' '))));
      return toCallAudio(concatSamples(parts));
    },
    async prompt(sentences: string[]): Promise<CallAudio> {
      // Sentence by sentence: the fixed ones come from the cache, only an alert's text renders.
      const parts = [];
      for (const s of sentences) parts.push(await speaker.speak(speakable(s, 'the desk prompt')));
      return toCallAudio(concatSamples(parts));
    },
    stats: () => ({ fallbacks: fallbacks(), cache: cache.stats() }),
  };
}
