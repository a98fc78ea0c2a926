import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Config } from '../config';
import { SpeechError } from './renderer';

export interface SpeechEngineCheck {
  /** Problems the appliance can run with (piper unusable: espeak-ng speaks); log them. */
  warnings: string[];
}

/**
 * Start-up check, synchronous and quick (~10 ms): the engines the config names can run.
 * Throws a SpeechError (ENGINE_MISSING) with one line for the operator, naming the Debian
 * package, when espeak-ng, its voice, or sox is missing: without them no call can speak.
 * piper problems are only warnings, because every piper failure falls back to espeak-ng.
 */
export function checkSpeechEngine(config: Config): SpeechEngineCheck {
  const tts = config.tts;
  const warnings: string[] = [];
  requireBinary(tts.espeak_binary, 'tts.espeak_binary', 'espeak-ng', ['--version']);
  const voice = spawnSync(tts.espeak_binary, ['-v', tts.voice, '-q', '--stdin'], { input: 'a', encoding: 'utf8', timeout: 10_000 });
  if (voice.status !== 0) {
    throw new SpeechError('ENGINE_MISSING', `espeak-ng has no voice "${tts.voice}" (tts.voice); list them with: espeak-ng --voices`);
  }
  requireBinary(tts.sox_binary, 'tts.sox_binary', 'sox', ['--version']);
  if (tts.engine === 'piper') {
    const { binary, model } = tts.piper;
    const run = spawnSync(binary, ['--help'], { encoding: 'utf8', timeout: 10_000 });
    if (run.error) warnings.push(`piper: cannot run "${binary}" (tts.piper.binary): ${run.error.message}; espeak-ng will speak`);
    if (!model) warnings.push('piper: tts.piper.model is not set; espeak-ng will speak');
    else if (!existsSync(model) || !existsSync(`${model}.json`)) {
      warnings.push(`piper: model ${model} or ${model}.json is missing; espeak-ng will speak`);
    }
  }
  return { warnings };
}

function requireBinary(binary: string, key: string, debianPackage: string, args: string[]): void {
  const r = spawnSync(binary, args, { encoding: 'utf8', timeout: 10_000 });
  if (r.error || r.status !== 0) {
    const why = r.error ? r.error.message : `exit ${r.status}`;
    throw new SpeechError(
      'ENGINE_MISSING',
      `${debianPackage} cannot run ("${binary}", ${key}: ${why}); install the Debian package: apt-get install ${debianPackage}`,
    );
  }
}
