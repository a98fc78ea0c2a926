import type { Pcm, Renderer } from './renderer';
import { SpeechError } from './renderer';
import { runProcess } from './run-process';
import { readWav } from './wav';

export interface EspeakOptions {
  binary: string;
  voice: string;
  speedWpm: number;
  pitch: number;
  gapMs: number;
  timeoutMs?: number;
}

/**
 * The arguments, never the text: the text goes to stdin (`--stdin`), so a message such as
 * `--help` or `-v en` is spoken, not obeyed. No `-m`, so `<speak>` and other SSML are read
 * out as text. `-b 1`: the input is UTF-8 (Turkish letters), whatever the locale says.
 */
export function espeakArgs(o: EspeakOptions): string[] {
  return [
    '-v', o.voice,
    '-s', String(o.speedWpm),
    '-p', String(o.pitch),
    '-g', String(Math.round(o.gapMs / 10)), // espeak counts the word gap in 10 ms units
    '-b', '1',
    '--stdout',
    '--stdin',
  ];
}

/** espeak-ng as a child process: the default engine and piper's fallback. */
export function createEspeakRenderer(o: EspeakOptions): Renderer {
  const args = espeakArgs(o);
  return {
    engine: 'espeak-ng',
    fingerprint: ['espeak-ng', ...args].join(' '),
    async render(text: string): Promise<Pcm> {
      const wav = await runProcess({
        binary: o.binary,
        args,
        stdin: new TextEncoder().encode(text),
        timeoutMs: o.timeoutMs ?? 30_000,
        what: 'espeak-ng',
      });
      const pcm = readWav(wav);
      if (pcm.samples.length === 0) throw new SpeechError('ENGINE_FAILED', 'espeak-ng produced no audio');
      return pcm;
    },
  };
}
