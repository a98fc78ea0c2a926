import { Command } from 'commander';
import { periodOf } from '../credit';
import { creditJson } from '../outward';
import { print, withStore } from './context';
import { refusal } from './refusal';

export function creditCommand(): Command {
  const cmd = new Command('credit').description('monthly call credit');
  cmd
    .command('show')
    .description("this period's credit: monthly amount, used, remaining")
    .argument('<account>', 'account id (acc_…)')
    .option('--json', 'print JSON')
    .action((accountId: string, opts, c: Command) =>
      withStore(c, async (store, config) => {
        const a = await store.accounts.get(accountId);
        if (!a) throw refusal('account_not_found', accountId);
        const period = periodOf(Date.now(), config.credit.timezone);
        const used = await store.usage.usedIn(a.id, period);
        const out = creditJson(period, a.monthlyCredit, used);
        print(opts.json, out, () => `${period}: ${out.used} of ${out.monthly_credit} used, ${out.remaining} remaining`);
      }),
    );
  return cmd;
}
