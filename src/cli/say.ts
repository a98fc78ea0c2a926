import { writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { silentLogger } from '../log';
import { sayJson } from '../outward';
import { createSpeech } from '../appliance';
import { decodeUlaw } from '../g711';
import { checkSpeechEngine, SpeechError, TELEPHONE_RATE, writeWav } from '../tts';
import { CliError, configFrom, print } from './context';

/**
 * `say`: writes exactly what a call would play for this alert text (intro, the message
 * `calls.repeat` times, the keypad prompt), 8 kHz, after G.711 µ-law, as a 16-bit WAV
 * any player opens. For installers choosing a voice and speed.
 */
export function sayCommand(): Command {
  return new Command('say')
    .description('render an alert text as a call would play it (8 kHz WAV)')
    .argument('<text>', 'the alert text, as a webhook would send it')
    .requiredOption('--out <file.wav>', 'where to write the WAV')
    .option('--voice <voice>', 'espeak-ng voice, overrides tts.voice (e.g. tr, en)')
    .option('--json', 'print JSON')
    .action(async (text: string, opts, c: Command) => {
      const config = configFrom(c, { 'tts.voice': opts.voice });
      try {
        const check = checkSpeechEngine(config);
        for (const w of check.warnings) process.stderr.write(`voice-alert: warning: ${w}\n`);
        const source = createSpeech(config, silentLogger());
        const audio = await source.forMessage(text);
        writeFileSync(opts.out, writeWav({ samples: decodeUlaw(audio.pcmu), sampleRate: TELEPHONE_RATE }));
        const { fallbacks } = source.stats();
        if (fallbacks > 0) process.stderr.write(`voice-alert: warning: piper failed, espeak-ng spoke instead\n`);
        print(opts.json, sayJson(opts.out, audio.durationMs, TELEPHONE_RATE, source.language, fallbacks), () => `wrote ${opts.out}: ${(audio.durationMs / 1000).toFixed(1)} s at ${TELEPHONE_RATE} Hz (${source.language})`);
      } catch (e) {
        if (e instanceof SpeechError) throw new CliError(e.message, e.code === 'ENGINE_MISSING' ? 2 : 1);
        throw e;
      }
    });
}
