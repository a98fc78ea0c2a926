import { Command } from 'commander';
import { iso, ownerJson, ownerPasswordJson } from '../outward';
import { MIN_PASSWORD_LENGTH } from '../panel';
import { readPasswordFromStdin } from './admin';
import { CliError, print, withServices } from './context';
import { refusal, requireAccount } from './refusal';
import { printList, row } from './text';

/**
 * `owner`: an account's panel logins (docs/panel.md), what the administrator's Accounts page
 * does: create one (a password from stdin, or one generated and shown once), list them, reset
 * a password (a new one, shown once; their sessions end).
 */
export function ownerCommand(): Command {
  const cmd = new Command('owner').description("account owners: an account's panel logins");
  cmd
    .command('create')
    .description('create a panel login for the account; without --password-stdin a password is generated and printed once')
    .argument('<account>', 'account id (acc_…)')
    .requiredOption('--email <email>', 'the login: an e-mail address, unique across the panel')
    .option('--password-stdin', `read the password (at least ${MIN_PASSWORD_LENGTH} characters) from standard input`)
    .option('--json', 'print JSON')
    .action(async (accountId: string, opts, c: Command) => {
      const password = opts.passwordStdin ? await readPasswordFromStdin() : undefined;
      await withServices(c, async ({ users }, store) => {
        await requireAccount(store, accountId);
        const r = await users.createOwner(accountId, opts.email, password ?? undefined);
        if (!r.ok) {
          const why = {
            INVALID_LOGIN: `--email: not a valid e-mail address: "${opts.email}"`,
            PASSWORD_TOO_SHORT: `the password must have at least ${MIN_PASSWORD_LENGTH} characters`,
            LOGIN_TAKEN: `a panel user "${opts.email}" already exists`,
            NO_ACCOUNT: null,
          }[r.code];
          if (why === null) throw refusal('account_not_found', accountId);
          throw new CliError(why);
        }
        const generated = r.generatedPassword;
        print(opts.json, generated ? ownerPasswordJson(r.user, generated) : ownerJson(r.user), () =>
          [`created owner ${r.user.login}`, generated ? `password: ${generated}  (shown only now)` : null].filter(Boolean).join('\n'),
        );
      });
    });
  cmd
    .command('list')
    .description("the account's owners, one line each")
    .argument('<account>', 'account id (acc_…)')
    .option('--json', 'print JSON')
    .action((accountId: string, opts, c: Command) =>
      withServices(c, async ({ users }, store) => {
        await requireAccount(store, accountId);
        printList(opts.json, await users.owners(accountId), ownerJson, (u) => row(u.id, u.login, `created ${iso(u.createdAt)}`));
      }),
    );
  cmd
    .command('reset-password')
    .description("give an owner a new generated password (printed once); their panel sessions end")
    .argument('<account>', 'account id (acc_…)')
    .argument('<email>', "the owner's login")
    .option('--json', 'print JSON')
    .action((accountId: string, email: string, opts, c: Command) =>
      withServices(c, async ({ users, passwords }, store) => {
        await requireAccount(store, accountId);
        const owner = (await users.owners(accountId)).find((u) => u.login.toLowerCase() === email.trim().toLowerCase());
        if (!owner) throw new CliError(`no owner "${email}" in account ${accountId}`);
        const r = await passwords.resetOwner(owner.id);
        if (!r.ok) throw new CliError(`no owner "${email}" in account ${accountId}`);
        print(opts.json, ownerPasswordJson(owner, r.password), () => `new password for ${r.login}: ${r.password}  (shown only now)`);
      }),
    );
  return cmd;
}
