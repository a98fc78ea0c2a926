import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configSchema } from '../../src/config/schema';
import { silentLogger } from '../../src/log';
import { createCallAudioSource } from '../../src/tts';

/** What the binary will play for `message`, rendered here by the same code with the same settings. */
export function expectedAudio(message: string, sections: { calls: Record<string, unknown>; tts: Record<string, unknown> }) {
  const config = configSchema.parse(sections);
  return createCallAudioSource(config, { log: silentLogger(), dataDir: mkdtempSync(join(tmpdir(), 'va-expected-')) }).forMessage(message);
}

/** 20 ms frames that are not entirely `silence`. */
export function loudFrames<T extends Uint8Array | Int16Array>(x: T, silence: number): T[] {
  const out: T[] = [];
  for (let i = 0; i + 160 <= x.length; i += 160) {
    const f = x.subarray(i, i + 160) as T;
    if (f.some((v) => v !== silence)) out.push(f);
  }
  return out;
}

/**
 * baresip records decoded PCM, and its G.711 decoder need not use our table. So compare
 * through whatever table it used: the recording holds exactly the sent codes iff every code
 * maps to one sample value and no two codes to the same one, across all frames in order.
 * Returns the problems found (empty: frame-exact).
 */
export function compareThroughDecoder(sent: Uint8Array[], heard: Int16Array[]): string[] {
  if (sent.length !== heard.length) return [`${heard.length} loud frames heard, ${sent.length} sent`];
  const table = new Map<number, number>();
  const inverse = new Map<number, number>();
  for (let f = 0; f < sent.length; f++) {
    for (let i = 0; i < 160; i++) {
      const code = sent[f]![i]!;
      const sample = heard[f]![i]!;
      if ((table.get(code) ?? sample) !== sample) return [`frame ${f} byte ${i}: code ${code} heard as ${sample}, before as ${table.get(code)}`];
      if ((inverse.get(sample) ?? code) !== code) return [`frame ${f} byte ${i}: sample ${sample} stands for codes ${code} and ${inverse.get(sample)}`];
      table.set(code, sample);
      inverse.set(sample, code);
    }
  }
  return [];
}
