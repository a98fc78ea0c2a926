import { Command } from 'commander';
import { systemClock } from '../clock';
import { sipTrunks } from '../config/sections/sip';
import { createLogger, silentLogger } from '../log';
import { iso, selfTestJson } from '../outward';
import { runSelfTest } from '../self-test';
import { createTelephone } from '../sip';
import type { SelfTestRecord } from '../store';
import { CliError, positiveInt, print, withStore } from './context';
import { printList, row } from './text';

const human = (t: SelfTestRecord) => row(iso(t.finishedAt), t.trunk, t.ok ? 'ok' : 'FAILED', t.reason, t.origin === 'cli' ? '(self-test run)' : null);

/** `self-test`: the voice-path self-test (docs/telephony.md "Voice-path self-test"). */
export function selfTestCommand(): Command {
  const cmd = new Command('self-test').description('the voice-path self-test: a call to self_test.number through each trunk');
  cmd
    .command('run')
    .description('run one now from this process (its own SIP port; no server needed); exits 1 when one fails')
    .option('--trunk <name>', 'only this trunk (default: self_test.trunk, else each trunk in turn)')
    .option('--verbose', 'log SIP progress (JSON lines on stdout)')
    .option('--json', 'print JSON: {ok, trunk, reason, …}, a list of them when several trunks were tested')
    .action((opts, c: Command) =>
      withStore(c, async (store, config) => {
        const all = sipTrunks(config.sip);
        if (all.length === 0) throw new CliError('sip.server is not set: nothing to dial through', 2);
        if (config.self_test.number === '') throw new CliError('self_test.number is not set: nothing to call', 2);
        const only = (opts.trunk as string | undefined) ?? (config.self_test.trunk || null);
        const trunks = only === null ? all : all.filter((t) => t.name === only);
        if (trunks.length === 0) throw new CliError(`no trunk named ${only} (sip.trunks: ${all.map((t) => t.name).join(', ')})`, 2);
        // --verbose logs JSON lines on stdout: use it without --json.
        const log = opts.verbose ? createLogger('info') : silentLogger();
        const results: SelfTestRecord[] = [];
        for (const trunk of trunks) {
          // Like test-call: its own port, no REGISTER, so a running server is not disturbed.
          const telephone = createTelephone({ ...trunk, local_port: 0, register: false }, config.sip.silence_ms, { log });
          try {
            await telephone.start();
            const r = await runSelfTest(
              { store, clock: systemClock, log, dialOn: (_name, request) => telephone.dial(request) },
              { trunk: trunk.name, config: config.self_test, ringTimeoutS: config.calls.ring_timeout_s, origin: 'cli' },
            );
            if (r) results.push(r);
          } finally {
            await telephone.stop();
          }
        }
        const json = results.map(selfTestJson);
        print(opts.json, json.length === 1 ? json[0] : json, () => results.map(human).join('\n'));
        const failed = results.filter((r) => !r.ok);
        if (failed.length > 0) throw new CliError(`self-test failed: ${failed.map((r) => `${r.trunk}: ${r.reason}`).join('; ')}`);
      }),
    );
  cmd
    .command('list')
    .description('the newest results first')
    .option('--limit <n>', 'at most this many (default 50)', positiveInt('--limit'))
    .option('--json', 'print JSON')
    .action((opts, c: Command) =>
      withStore(c, async (store) => {
        printList(opts.json, await store.selfTests.list(opts.limit ?? 50), selfTestJson, human);
      }),
    );
  return cmd;
}
