import { Command } from 'commander';
import { createSpeech } from '../appliance';
import { describeOutcome } from '../call-model';
import { testCallJson } from '../outward';
import { normalizePhoneNumber } from '../phone';
import { createLogger, silentLogger } from '../log';
import { createTelephone } from '../sip';
import { sipTrunks } from '../config/sections/sip';
import { CliError, configFrom, positiveInt, print } from './context';

/**
 * `test-call NUMBER "text"`: for installers. Dials through the configured trunk from this
 * process (its own SIP port, so a running server is not disturbed), plays the text, and
 * prints how it ended. Nothing is queued and no credit is charged.
 */
export function testCallCommand(): Command {
  return new Command('test-call')
    .description('place one call now through the configured trunk (no queue, no credit) and print the outcome')
    .argument('<number>', 'phone number, as the API accepts it')
    .argument('<text>', 'what to say')
    .option('--ring-timeout <s>', 'give up ringing after this many seconds', positiveInt('--ring-timeout'))
    .option('--trunk <name>', 'dial through this trunk (default: the first in order)')
    .option('--verbose', 'log SIP progress (JSON lines on stdout)')
    .option('--json', 'print JSON')
    .action(async (numberText: string, text: string, opts, c: Command) => {
      const config = configFrom(c);
      // The first trunk in order (docs/telephony.md "SIP trunks: several, in order"), or the one
      // --trunk names.
      const trunks = sipTrunks(config.sip);
      if (trunks.length === 0) throw new CliError('sip.server is not set: nothing to dial through', 2);
      const trunk = opts.trunk ? trunks.find((t) => t.name === opts.trunk) : trunks[0];
      if (!trunk) throw new CliError(`no trunk named ${opts.trunk} (sip.trunks: ${trunks.map((t) => t.name).join(', ')})`, 2);
      const number = normalizePhoneNumber(numberText, config.numbers.accept);
      if (!number) throw new CliError(`invalid phone number: ${numberText}`, 2);
      // --verbose logs JSON lines on stdout: use it without --json.
      const log = opts.verbose ? createLogger('info') : silentLogger();
      const audio = createSpeech(config, log);
      const telephone = createTelephone({ ...trunk, local_port: 0, register: false }, config.sip.silence_ms, { log });
      await telephone.start();
      const progress: string[] = [];
      try {
        const outcome = await telephone.dial({
          number,
          audio: () => audio.forMessage(text),
          acknowledgedAudio: () => audio.acknowledged(),
          ringTimeoutMs: (opts.ringTimeout ?? config.calls.ring_timeout_s) * 1000,
          answerDelayMs: config.calls.answer_delay_ms,
          maxCallMs: config.calls.max_call_s * 1000,
          progress: {
            ringing: (s) => progress.push(`ringing ${s}`),
            answered: (codec) => progress.push(`answered ${codec}`),
            digit: (d) => progress.push(`keypad ${d}`),
          },
        });
        print(opts.json, testCallJson(number, outcome, progress), () => [...progress, describeOutcome(outcome)].join('\n'));
        if (outcome.code !== 'COMPLETED' && outcome.code !== 'ACKNOWLEDGED') {
          throw new CliError(`the call was not answered: ${describeOutcome(outcome)}`);
        }
      } finally {
        await telephone.stop();
      }
    });
}
