import { Command } from 'commander';
import type { AccountChangeResult, NewAccountResult } from '../accounts';
import { PLANS } from '../credit';
import { accountJson, callbackClearedJson, callbackSetJson, fallbackJson, newAccountJson } from '../outward';
import { addFallbackCommands } from './account-fallback';
import { CliError, print, withServices, withStore } from './context';
import { refusal as catalogued, requireAccount } from './refusal';
import { printList, row } from './text';

type Refusal = Extract<NewAccountResult | AccountChangeResult, { ok: false }>['code'];

/** The account services' codes in the CLI's words; `given` is what the user typed. */
function refusal(code: Refusal, given: { id?: string; name?: string; plan?: string; credit?: string; email?: string }): CliError {
  switch (code) {
    case 'NO_ACCOUNT':
      return catalogued('account_not_found', given.id);
    case 'NAME_REQUIRED':
      return new CliError('--name must not be empty');
    case 'INVALID_PLAN':
      return new CliError(`plan must be one of ${PLANS.join('|')}, got "${given.plan}"`);
    case 'INVALID_CREDIT':
      return new CliError(`--monthly-credit must be a whole number >= 0, got "${given.credit}"`);
    case 'LOGIN_TAKEN':
      return new CliError(`a panel user "${given.email}" already exists`);
    case 'INVALID_LOGIN':
    case 'PASSWORD_TOO_SHORT': // the password is always generated here
      return new CliError(`--owner-email: not a valid e-mail address: "${given.email}"`);
  }
}

export function accountCommand(): Command {
  const cmd = new Command('account').description('create and change accounts');
  cmd
    .command('create')
    .description('create an account')
    .requiredOption('--name <name>', 'account name')
    .requiredOption('--plan <plan>', PLANS.join('|'))
    .option('--monthly-credit <n>', 'calls per month instead of the plan default')
    .option('--owner-email <email>', 'also create a panel login for this account; its password is generated and printed once')
    .option('--json', 'print JSON')
    .action((opts, c: Command) =>
      withServices(c, async ({ accounts }) => {
        const r = await accounts.create({ name: opts.name, plan: opts.plan, monthlyCredit: opts.monthlyCredit, ownerEmail: opts.ownerEmail });
        if (!r.ok) throw refusal(r.code, { name: opts.name, plan: opts.plan, credit: opts.monthlyCredit, email: opts.ownerEmail });
        const a = r.account;
        const created = `created ${a.id} (${a.name}, ${a.plan}, ${a.monthlyCredit} calls/month)`;
        const owner = r.owner;
        print(opts.json, newAccountJson(a, owner), () =>
          owner ? [created, `panel login: ${owner.login}  password: ${owner.generatedPassword}  (shown only now)`].join('\n') : created,
        );
      }, 'create'),
    );
  cmd
    .command('set-plan')
    .description("change an account's plan")
    .argument('<account>', 'account id (acc_…)')
    .argument('<plan>', PLANS.join('|'))
    .option('--monthly-credit <n>', 'calls per month instead of the plan default')
    .option('--json', 'print JSON')
    .action((id: string, plan: string, opts, c: Command) =>
      withServices(c, async ({ accounts }, store) => {
        await requireAccount(store, id); // before the plan: an unknown account is the first thing said
        const r = await accounts.setPlan(id, { plan, monthlyCredit: opts.monthlyCredit });
        if (!r.ok) throw refusal(r.code, { id, plan, credit: opts.monthlyCredit });
        const a = r.account;
        print(opts.json, accountJson(a), () => `${a.id} is now ${a.plan} (${a.monthlyCredit} calls/month)`);
      }),
    );
  for (const [name, disabled, description] of [
    ['disable', true, "disable an account: its requests are refused until it is enabled again"],
    ['enable', false, 'enable a disabled account: its requests are accepted again'],
  ] as const) {
    cmd
      .command(name)
      .description(description)
      .argument('<account>', 'account id (acc_…)')
      .option('--json', 'print JSON')
      .action((id: string, opts, c: Command) =>
        withServices(c, async ({ accounts }) => {
          const r = await accounts.setDisabled(id, disabled);
          if (!r.ok) throw refusal(r.code, { id });
          print(opts.json, accountJson(r.account), () => `${r.account.id} ${disabled ? 'disabled' : 'enabled'}`);
        }),
      );
  }
  cmd
    .command('set-callback')
    .argument('<account>', 'account id (acc_…)')
    .description("send the account's outcome events to a URL; prints the new signing secret once")
    .requiredOption('--url <url>', 'http(s) URL that receives the events (POST, JSON, signed)')
    .option('--json', 'print JSON')
    .action((id: string, opts, c: Command) =>
      withServices(c, async ({ callbacks }) => {
        const r = await callbacks.set(id, opts.url);
        if (!r.ok) throw r.code === 'NO_ACCOUNT' ? refusal(r.code, { id }) : new CliError(`--url must be an http(s) URL without user:password, got "${opts.url}"`);
        print(opts.json, callbackSetJson(id, r.url, r.secret), () =>
          [`${id} sends its outcome events to ${r.url}`, `signing secret: ${r.secret}  (shown only now)`].join('\n'),
        );
      }),
    );
  cmd
    .command('clear-callback')
    .argument('<account>', 'account id (acc_…)')
    .description("stop sending the account's outcome events (events already written are given up)")
    .option('--json', 'print JSON')
    .action((id: string, opts, c: Command) =>
      withServices(c, async ({ callbacks }) => {
        const r = await callbacks.clear(id);
        if (!r.ok) throw refusal(r.code, { id });
        print(opts.json, callbackClearedJson(id), () => `${id} sends no outcome events`);
      }),
    );
  cmd
    .command('list')
    .description('list accounts')
    .option('--json', 'print JSON')
    .action((opts, c: Command) =>
      withStore(c, async (store) => {
        const all = await store.accounts.list();
        const fallbacks = await Promise.all(all.map((a) => store.fallbacks.get(a.id)));
        const items = all.map((a, i) => ({ a, fallback: fallbacks[i]! }));
        printList(opts.json, items, ({ a, fallback }) => ({ ...accountJson(a), fallback: fallbackJson(fallback) }), ({ a }) =>
          row(a.id, a.plan, a.monthlyCredit, a.disabled ? 'disabled' : 'active', a.name),
        );
      }),
    );
  addFallbackCommands(cmd);
  return cmd;
}
