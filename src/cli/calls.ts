import { Command } from 'commander';
import { callListJson, callStatusOf, iso } from '../outward';
import type { CallRecord } from '../store';
import { CliError, positiveInt, print, withStore } from './context';

export function callsCommand(): Command {
  const cmd = new Command('calls').description('queued and placed calls');
  cmd
    .command('list')
    .description('newest calls first')
    .option('--account <id>', 'only this account')
    .option('--limit <n>', 'at most this many', positiveInt('--limit'), 50)
    .option('--json', 'print JSON')
    .action((opts, c: Command) =>
      withStore(c, async (store) => {
        const calls = await store.calls.list({ accountId: opts.account, limit: opts.limit });
        print(opts.json, calls.map(callListJson), () =>
          calls.map((x) => `${x.id}\t${x.phoneNumber}\t${x.state}\t${x.attempts}\t${iso(x.createdAt)}`).join('\n'),
        );
      }),
    );
  cmd
    .command('show')
    .description("one call: state, attempts, times, last SIP code, acknowledgement and every transition")
    .argument('<id>', 'call id (call_…)')
    .option('--json', 'print JSON')
    .action((id: string, opts, c: Command) =>
      withStore(c, async (store) => {
        // The same builder as GET /api/calls/:id's `call` field, so both print the same JSON.
        const status = await callStatusOf(store, id);
        if (!status) throw new CliError(`no call ${id}`);
        print(opts.json, status, () =>
          [
            `${status.id}  ${status.phone_number}  ${status.state}  attempts ${status.attempts}` +
              (status.acknowledged ? '  acknowledged' : ''),
            `last: ${status.last_sip_code ?? '-'} ${status.last_reason ?? ''}`.trimEnd(),
            ...status.events.map((e) => `${e.at}  #${e.attempt}  ${e.from} -> ${e.to}  ${e.sip_code ?? ''} ${e.reason ?? ''}`.trimEnd()),
          ].join('\n'),
        );
      }),
    );
  return cmd;
}
