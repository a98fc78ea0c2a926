import { statSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Pcm, Renderer } from './renderer';
import { SpeechError } from './renderer';
import { runProcess } from './run-process';
import { readWav } from './wav';

export interface PiperOptions {
  binary: string;
  /** The voice's `.onnx`; `<model>.json` beside it holds `audio.sample_rate`. */
  model: string;
  /** -1: the model's default speaker (no `--speaker` argument). */
  speaker: number;
  lengthScale: number;
  timeoutMs?: number;
}

/**
 * piper's CLI as its README documents it: text on stdin, `--model`, `--config`,
 * `--output_file`, `--speaker`, `--length_scale`. We pass the model's JSON explicitly so
 * piper and we read the same sample rate.
 */
export function piperArgs(o: PiperOptions, outputFile: string): string[] {
  const args = ['--model', o.model, '--config', `${o.model}.json`, '--output_file', outputFile];
  if (o.speaker >= 0) args.push('--speaker', String(o.speaker));
  args.push('--length_scale', String(o.lengthScale));
  return args;
}

/** The model's output rate from its `.onnx.json` (`audio.sample_rate`). */
export async function readModelSampleRate(model: string): Promise<number> {
  let json: any;
  try {
    json = JSON.parse(await readFile(`${model}.json`, 'utf8'));
  } catch (e) {
    throw new SpeechError('ENGINE_FAILED', `piper: cannot read ${model}.json: ${(e as Error).message}`);
  }
  const rate = json?.audio?.sample_rate;
  if (!Number.isInteger(rate) || rate < 8000) throw new SpeechError('BAD_AUDIO', `piper: ${model}.json has no valid audio.sample_rate`);
  return rate;
}

/** Size and modification time of the model and its JSON: what changes when a voice is replaced. */
function modelIdentity(model: string): string {
  return [model, `${model}.json`]
    .map((f) => {
      const st = statSync(f, { throwIfNoEntry: false });
      return st ? `${st.size}@${st.mtimeMs}` : 'missing';
    })
    .join('/');
}

export function createPiperRenderer(o: PiperOptions): Renderer {
  return {
    engine: 'piper',
    // The model file's size and time too: a voice replaced in place must not keep speaking
    // from the cache. A stat per utterance costs microseconds.
    get fingerprint() {
      return ['piper', ...piperArgs(o, '-'), modelIdentity(o.model)].join(' ');
    },
    async render(text: string): Promise<Pcm> {
      const sampleRate = await readModelSampleRate(o.model);
      const dir = await mkdtemp(join(tmpdir(), 'va-piper-'));
      try {
        const outputFile = join(dir, 'out.wav');
        await runProcess({
          binary: o.binary,
          args: piperArgs(o, outputFile),
          // piper synthesises line by line; one trailing newline ends the last line.
          stdin: new TextEncoder().encode(text.replace(/\n/g, ' ') + '\n'),
          timeoutMs: o.timeoutMs ?? 60_000,
          what: 'piper',
        });
        const pcm = readWav(new Uint8Array(await readFile(outputFile).catch(() => new Uint8Array())));
        if (pcm.sampleRate !== sampleRate) {
          throw new SpeechError('BAD_AUDIO', `piper wrote ${pcm.sampleRate} Hz, ${o.model}.json says ${sampleRate} Hz`);
        }
        if (pcm.samples.length === 0) throw new SpeechError('ENGINE_FAILED', 'piper produced no audio');
        return pcm;
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
