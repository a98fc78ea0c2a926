import type { CallAudioSource } from '../../call-model';
import { describeError, type Logger } from '../../log';
import { decodeUlaw } from '../../g711';
import { SpeechError, TELEPHONE_RATE, writeWav } from '../../tts';

/**
 * A call's audio as a WAV the browser plays: exactly what the dialer sends (intro, the
 * message repeated, the keypad prompt), 8 kHz after G.711, rendered by the same
 * (cached) speech path. 503 when speech cannot render, e.g. espeak-ng is missing.
 */
export async function wavOf(speech: CallAudioSource, text: string, log: Logger): Promise<Response> {
  try {
    const audio = await speech.forMessage(text);
    const wav = writeWav({ samples: decodeUlaw(audio.pcmu), sampleRate: TELEPHONE_RATE });
    return new Response(new Uint8Array(wav), { headers: { 'content-type': 'audio/wav', 'cache-control': 'private, max-age=300', 'x-content-type-options': 'nosniff' } });
  } catch (e) {
    if (e instanceof SpeechError && e.code === 'EMPTY_TEXT') return new Response('nothing to speak', { status: 422 });
    log.error({ error: describeError(e) }, 'panel: speech rendering failed');
    return new Response('speech unavailable', { status: 503 });
  }
}
