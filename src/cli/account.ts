import { Command } from 'commander';
import { systemClock } from '../clock';
import { isPlan, PLANS, type Plan } from '../credit';
import { createAccountWithOwner, createPanelUsersService } from '../panel';
import type { Account } from '../store';
import { CliError, positiveInt, print, withStore } from './context';

export function accountJson(a: Account) {
  return { id: a.id, name: a.name, plan: a.plan, monthly_credit: a.monthlyCredit, disabled: a.disabled };
}

function planArg(v: string): Plan {
  const p = v.toLowerCase();
  if (!isPlan(p)) throw new CliError(`plan must be one of ${PLANS.join('|')}, got "${v}"`);
  return p;
}

function found(a: Account | null, id: string): Account {
  if (!a) throw new CliError(`no account ${id}`);
  return a;
}

export function accountCommand(): Command {
  const cmd = new Command('account').description('create and change accounts');
  cmd
    .command('create')
    .description('create an account')
    .requiredOption('--name <name>', 'account name')
    .requiredOption('--plan <plan>', PLANS.join('|'), planArg)
    .option('--monthly-credit <n>', 'calls per month instead of the plan default', positiveInt('--monthly-credit'))
    .option('--owner-email <email>', 'also create a panel login for this account; its password is generated and printed once')
    .option('--json', 'print JSON')
    .action((opts, c: Command) =>
      withStore(c, async (store) => {
        if (!opts.ownerEmail) {
          const a = store.accounts.create({ name: opts.name, plan: opts.plan, monthlyCredit: opts.monthlyCredit });
          print(opts.json, accountJson(a), () => `created ${a.id} (${a.name}, ${a.plan}, ${a.monthlyCredit} calls/month)`);
          return;
        }
        const r = await createAccountWithOwner(store, createPanelUsersService(store, systemClock), {
          name: opts.name,
          plan: opts.plan,
          monthlyCredit: opts.monthlyCredit === undefined ? '' : String(opts.monthlyCredit),
          ownerEmail: opts.ownerEmail,
        });
        if (!r.ok) throw new CliError(r.code === 'LOGIN_TAKEN' ? `a panel user "${opts.ownerEmail}" already exists` : `--owner-email: not a valid e-mail address: "${opts.ownerEmail}"`);
        const a = r.account;
        const owner = { owner_email: r.owner!.login, owner_password: r.owner!.generatedPassword };
        print(opts.json, { ...accountJson(a), ...owner }, () =>
          [
            `created ${a.id} (${a.name}, ${a.plan}, ${a.monthlyCredit} calls/month)`,
            `panel login: ${owner.owner_email}  password: ${owner.owner_password}  (shown only now)`,
          ].join('\n'),
        );
      }),
    );
  cmd
    .command('set-plan <id> <plan>')
    .description("change an account's plan")
    .option('--monthly-credit <n>', 'calls per month instead of the plan default', positiveInt('--monthly-credit'))
    .option('--json', 'print JSON')
    .action((id: string, plan: string, opts, c: Command) =>
      withStore(c, (store) => {
        const a = found(store.accounts.setPlan(id, planArg(plan), opts.monthlyCredit), id);
        print(opts.json, accountJson(a), () => `${a.id} is now ${a.plan} (${a.monthlyCredit} calls/month)`);
      }),
    );
  for (const [name, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const) {
    cmd
      .command(`${name} <id>`)
      .description(`${name} an account (a disabled account's requests are refused)`)
      .option('--json', 'print JSON')
      .action((id: string, opts, c: Command) =>
        withStore(c, (store) => {
          const a = found(store.accounts.setDisabled(id, disabled), id);
          print(opts.json, accountJson(a), () => `${a.id} ${disabled ? 'disabled' : 'enabled'}`);
        }),
      );
  }
  cmd
    .command('list')
    .description('list accounts')
    .option('--json', 'print JSON')
    .action((opts, c: Command) =>
      withStore(c, (store) => {
        const all = store.accounts.list();
        print(opts.json, all.map(accountJson), () =>
          all.map((a) => `${a.id}\t${a.plan}\t${a.monthlyCredit}\t${a.disabled ? 'disabled' : 'active'}\t${a.name}`).join('\n'),
        );
      }),
    );
  return cmd;
}
