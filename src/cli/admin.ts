import { Command } from 'commander';
import { MIN_PASSWORD_LENGTH } from '../panel';
import { adminCreatedJson, adminJson, adminPasswordChangedJson, iso } from '../outward';
import { CliError, print, withServices } from './context';
import { printList, row } from './text';

/** The password from stdin: its first line, without the line break (so `echo pw |` works). */
export async function readPasswordFromStdin(): Promise<string> {
  const text = await new Response(Bun.stdin.stream()).text();
  return text.split(/\r?\n/)[0] ?? '';
}

/**
 * `admin`: the panel's administrators, what its Administrators page does (routes/admins-routes.ts):
 * create, list, set a lost password. One's own is changed here too (`passwd --username` oneself),
 * or on the panel's Password page with the current one.
 */
export function adminCommand(): Command {
  const cmd = new Command('admin').description('web panel administrators');
  cmd
    .command('create')
    .description('create an administrator who can log in to /panel and manage every account')
    .requiredOption('--username <name>', 'login name (3-64 of letters, digits, . _ @ -)')
    .requiredOption('--password-stdin', 'read the password from standard input (never from the command line)')
    .option('--json', 'print JSON')
    .action(async (opts, c: Command) => {
      const password = await readPasswordFromStdin();
      await withServices(c, async (services) => {
        const r = await services.users.createAdmin(opts.username, password);
        if (!r.ok) {
          const why = {
            INVALID_LOGIN: `--username must be 3-64 of letters, digits, . _ @ -, got "${opts.username}"`,
            PASSWORD_TOO_SHORT: `the password must have at least ${MIN_PASSWORD_LENGTH} characters`,
            LOGIN_TAKEN: `a panel user "${opts.username}" already exists`,
            NO_ACCOUNT: 'no such account',
          }[r.code];
          throw new CliError(why);
        }
        print(opts.json, adminCreatedJson(r.user), () => `created administrator ${r.user.login}`);
      }, 'create');
    });
  cmd
    .command('list')
    .description('the administrators, one line each: id, user name, when created; never a password')
    .option('--json', 'print JSON')
    .action((opts, c: Command) =>
      withServices(c, async ({ users }) => {
        printList(opts.json, await users.admins(), adminJson, (u) => row(u.id, u.login, `created ${iso(u.createdAt)}`));
      }),
    );
  cmd
    .command('passwd')
    .description("set an administrator's password (a lost one, or one's own); their panel sessions end")
    .requiredOption('--username <name>', 'the administrator')
    .requiredOption('--password-stdin', 'read the new password from standard input (never from the command line)')
    .option('--json', 'print JSON')
    .action(async (opts, c: Command) => {
      const password = await readPasswordFromStdin();
      await withServices(c, async (services) => {
        const r = await services.passwords.setAdmin(opts.username, password);
        if (!r.ok) {
          throw new CliError(
            r.code === 'NO_USER'
              ? `no administrator "${opts.username}" (an owner's password: voice-alert owner reset-password ACCOUNT EMAIL)`
              : `the password must have at least ${MIN_PASSWORD_LENGTH} characters`,
          );
        }
        print(opts.json, adminPasswordChangedJson(opts.username), () => `password changed for ${opts.username}`);
      });
    });
  return cmd;
}
