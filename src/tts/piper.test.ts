import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../log';
import { createCallAudioSource } from './index';
import { createPiperRenderer, piperArgs } from './piper';
import { createRenderCache } from './render-cache';
import { createCachedSpeaker } from './speaker';
import { tempDir, ttsConfig } from '../../test/helpers/tts-support';

/**
 * No piper voice model can be downloaded here, so these tests run a STAND-IN for the piper
 * executable: a shell script that accepts only the exact command line and stdin piper's CLI
 * documents (`piper --model M --config M.json --output_file F [--speaker N] --length_scale X`,
 * text on stdin) and then writes a valid WAV at the model's rate with sox, as piper would.
 */
function piperStandIn(dir: string, expected: { text: string; speaker?: number; lengthScale: number }) {
  const model = join(dir, 'tr_TR-standin-medium.onnx');
  writeFileSync(model, 'not a real model');
  writeFileSync(`${model}.json`, JSON.stringify({ audio: { sample_rate: 16000 }, num_speakers: 4 }));
  writeFileSync(join(dir, 'expected-stdin'), `${expected.text}\n`);
  const speaker = expected.speaker === undefined ? '' : ` --speaker ${expected.speaker}`;
  const binary = join(dir, 'piper-stand-in');
  writeFileSync(
    binary,
    `#!/bin/sh
# Stand-in for piper (tests only): checks the arguments and stdin, writes a 16 kHz WAV.
[ "$1 $2 $3 $4 $5" = "--model ${model} --config ${model}.json --output_file" ] || { echo "stand-in: unexpected arguments: $*" >&2; exit 64; }
out="$6"
shift 6
[ "$*" = "${speaker.trim()}${speaker ? ' ' : ''}--length_scale ${expected.lengthScale}" ] || { echo "stand-in: unexpected arguments: $*" >&2; exit 64; }
cat > "$out.stdin"
cmp -s "$out.stdin" '${dir}/expected-stdin' || { echo "stand-in: unexpected stdin" >&2; exit 65; }
echo run >> '${dir}/runs'
exec sox -n -r 16000 -b 16 -c 1 -e signed "$out" synth 1.5 sine 440 vol 0.5
`,
  );
  chmodSync(binary, 0o755);
  return { binary, model, runs: () => readFileSync(join(dir, 'runs'), 'utf8').split('\n').length - 1 };
}

describe('piper adapter against a stand-in executable', () => {
  it('passes piper\'s documented arguments, text on stdin, and reads the rate from the model JSON', async () => {
    const dir = tempDir();
    const standIn = piperStandIn(dir, { text: '-v en --help <speak>', speaker: 2, lengthScale: 1.2 });
    const r = createPiperRenderer({ binary: standIn.binary, model: standIn.model, speaker: 2, lengthScale: 1.2 });
    const pcm = await r.render('-v en --help <speak>');
    expect(pcm.sampleRate).toBe(16000);
    expect(pcm.samples.length).toBe(24000);
    expect(piperArgs({ binary: 'piper', model: 'm.onnx', speaker: -1, lengthScale: 1 }, 'o.wav')).toEqual([
      '--model', 'm.onnx', '--config', 'm.onnx.json', '--output_file', 'o.wav', '--length_scale', '1',
    ]);
  });

  it('the stand-in really refuses wrong arguments, and that is an ENGINE_FAILED', async () => {
    const dir = tempDir();
    const standIn = piperStandIn(dir, { text: 'a', lengthScale: 1 });
    const r = createPiperRenderer({ binary: standIn.binary, model: standIn.model, speaker: 3, lengthScale: 1 });
    await expect(r.render('a')).rejects.toMatchObject({ code: 'ENGINE_FAILED', message: expect.stringContaining('unexpected arguments') });
  });

  it('a call with engine "piper" is spoken by piper and cached; what piper refuses falls back', async () => {
    const dir = tempDir();
    const standIn = piperStandIn(dir, { text: 'Disk dolu.', lengthScale: 1 });
    const config = ttsConfig({ engine: 'piper', piper: { binary: standIn.binary, model: standIn.model } }, { intro: 'Disk dolu.', repeat: 1 });
    const source = createCallAudioSource(config, { log: silentLogger(), dataDir: dir });
    // The stand-in only accepts "Disk dolu.", so the keypad prompt falls back: count that.
    const audio = await source.forMessage('Disk dolu.');
    expect(audio.durationMs).toBeGreaterThan(1500 + 1000 + 1500);
    expect(standIn.runs()).toBe(1); // intro and message are the same text: one render
    expect(source.stats().fallbacks).toBe(1); // the prompt
  });

  it('falls back to espeak-ng when the piper binary is missing, logs and counts it', async () => {
    const lines: string[] = [];
    const pino = (await import('pino')).default;
    const log = pino({ level: 'warn' }, { write: (s: string) => lines.push(s) });
    const config = ttsConfig({ engine: 'piper', piper: { binary: '/nonexistent/piper', model: '/nonexistent/m.onnx' } });
    const dataDir = tempDir();
    const withPiper = createCallAudioSource(config, { log, dataDir });
    const audio = await withPiper.forMessage('Web sunucusu yanıt vermiyor.');
    expect(withPiper.stats().fallbacks).toBe(3); // intro, message, prompt
    expect(lines.length).toBe(3);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 40, msg: expect.stringContaining('espeak-ng') });

    // Exactly what espeak-ng alone would have played.
    const espeakOnly = createCallAudioSource(ttsConfig(), { log: silentLogger(), dataDir: tempDir() });
    const expected = await espeakOnly.forMessage('Web sunucusu yanıt vermiyor.');
    expect(Buffer.from(audio.pcmu).equals(Buffer.from(expected.pcmu))).toBe(true);
  });

  it('a voice model replaced in place is spoken afresh, not served from the cache', async () => {
    const dir = tempDir();
    const standIn = piperStandIn(dir, { text: 'Disk dolu.', lengthScale: 1 });
    const speaker = createCachedSpeaker(
      createPiperRenderer({ binary: standIn.binary, model: standIn.model, speaker: -1, lengthScale: 1 }),
      'sox',
      createRenderCache({ dir: join(dir, 'cache'), maxBytes: 10_000_000, log: silentLogger() }),
    );
    await speaker.speak('Disk dolu.');
    await speaker.speak('Disk dolu.');
    expect(standIn.runs()).toBe(1); // the second from the cache
    writeFileSync(standIn.model, 'another voice, same path');
    await speaker.speak('Disk dolu.');
    expect(standIn.runs()).toBe(2);
  });
});
