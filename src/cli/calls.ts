import { Command } from 'commander';
import type { CallRecord } from '../store';
import { positiveInt, print, withStore } from './context';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function callJson(c: CallRecord) {
  return {
    id: c.id,
    account_id: c.accountId,
    phone_number: c.phoneNumber,
    state: c.state,
    attempts: c.attempts,
    source: c.source,
    created_at: iso(c.createdAt),
    updated_at: iso(c.updatedAt),
    last_sip_code: c.lastSipCode,
    last_reason: c.lastReason,
    acknowledged: c.acknowledgedAt !== null,
  };
}

export function callsCommand(): Command {
  const cmd = new Command('calls').description('queued and placed calls');
  cmd
    .command('list')
    .description('newest calls first')
    .option('--account <id>', 'only this account')
    .option('--limit <n>', 'at most this many', positiveInt('--limit'), 50)
    .option('--json', 'print JSON')
    .action((opts, c: Command) =>
      withStore(c, (store) => {
        const calls = store.calls.list({ accountId: opts.account, limit: opts.limit });
        print(opts.json, calls.map(callJson), () =>
          calls.map((x) => `${x.id}\t${x.phoneNumber}\t${x.state}\t${x.attempts}\t${iso(x.createdAt)}`).join('\n'),
        );
      }),
    );
  return cmd;
}
