import type { CallAudio } from '../call-model';
import { encodeAlaw, encodeUlaw } from '../g711';
import { TELEPHONE_RATE } from './resample';
import type { TelephoneSpeaker } from './speaker';

export interface CallScript {
  intro: string;
  message: string;
  repeat: number;
  closing: string;
  pauseMs: number;
}

/**
 * The call as heard: intro, pause, message, pause, message (… `repeat` times), pause,
 * keypad prompt. Parts are spoken separately so the intro and the prompt are rendered once
 * and then come from the cache for every alert. Texts must already be normalised.
 */
export async function composeCall(speaker: TelephoneSpeaker, script: CallScript): Promise<CallAudio> {
  const [intro, message, closing] = await Promise.all([
    script.intro ? speaker.speak(script.intro) : Promise.resolve(new Int16Array(0)),
    speaker.speak(script.message),
    speaker.speak(script.closing),
  ]);
  const pause = new Int16Array(Math.round((script.pauseMs * TELEPHONE_RATE) / 1000));
  const parts: Int16Array[] = [];
  if (intro.length) parts.push(intro, pause);
  for (let i = 0; i < script.repeat; i++) parts.push(message, pause);
  parts.push(closing);
  return toCallAudio(concatSamples(parts));
}

export function toCallAudio(samples: Int16Array): CallAudio {
  return {
    pcmu: encodeUlaw(samples),
    pcma: encodeAlaw(samples),
    durationMs: Math.round((samples.length * 1000) / TELEPHONE_RATE),
  };
}

export function concatSamples(parts: Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
