import { Command } from 'commander';
import { callListJson, callStatusOf, iso, ownCallStatus } from '../outward';
import { positiveInt, print, withStore } from './context';
import { accountOfList, accountThenId, refusal, requireAccount } from './refusal';
import { part, printList, row } from './text';

export function callsCommand(): Command {
  const cmd = new Command('calls').description('queued and placed calls');
  cmd
    .command('list')
    .description('newest calls first, of every account or of ACCOUNT')
    .argument('[account]', 'only this account (acc_…)')
    .option('--account <id>', 'the same as ACCOUNT (the older form)')
    .option('--limit <n>', 'at most this many', positiveInt('--limit'), 50)
    .option('--json', 'print JSON')
    .action((positional: string | undefined, opts, c: Command) =>
      withStore(c, async (store) => {
        const accountId = accountOfList(positional, opts.account);
        if (accountId !== undefined) await requireAccount(store, accountId);
        const calls = await store.calls.list({ accountId, limit: opts.limit });
        printList(opts.json, calls, callListJson, (x) => row(x.id, x.phoneNumber, x.state, `${x.attempts} attempt(s)`, iso(x.createdAt)));
      }),
    );
  cmd
    .command('show')
    .description("one call: state, attempts, times, last SIP code, acknowledgement and every transition")
    // `show ACCOUNT ID`; the older `show ID` (any account's call) still works.
    .argument('<account>', 'account id (acc_…); the older form gives only the call id')
    .argument('[call]', 'call id (call_…)')
    .option('--json', 'print JSON')
    .action((first: string, second: string | undefined, opts, c: Command) =>
      withStore(c, async (store) => {
        const { accountId, id } = accountThenId(first, second);
        if (accountId !== null) await requireAccount(store, accountId);
        // The same builder as GET /api/calls/:id's `call` field, so both print the same JSON.
        const status = accountId === null ? await callStatusOf(store, id) : await ownCallStatus(store, accountId, id);
        if (!status) throw refusal('call_not_found', id);
        print(opts.json, status, () =>
          [
            row(status.id, status.phone_number, status.state, `${status.attempts} attempt(s)`, status.acknowledged ? 'acknowledged' : null),
            part('last', status.last_sip_code, status.last_reason),
            ...status.events.map((e) => part(e.at, `#${e.attempt}`, e.from, e.to, e.sip_code, e.reason)),
          ].join('\n'),
        );
      }),
    );
  return cmd;
}
