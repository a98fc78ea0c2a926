import { Command } from 'commander';
import { issuedKeysJson, revokedKeyJson } from '../outward';
import { CliError, print, withServices } from './context';

/** `keys`: the administrator's side of the credential rules in src/accounts/credentials.ts. */
export function keysCommand(): Command {
  const cmd = new Command('keys').description('API credentials (API key, API secret, webhook key)');
  cmd
    .command('create <account-id>')
    .description('create a credential set; the secret and webhook key are shown only now')
    .option('--require-signature', 'refuse unsigned requests made with these credentials')
    .option('--json', 'print JSON')
    .action((accountId: string, opts, c: Command) =>
      withServices(c, async ({ credentials }) => {
        const r = await credentials.create(accountId, { requireSignature: Boolean(opts.requireSignature) });
        if (!r.ok) throw new CliError(`no account ${accountId}`);
        const k = r.issued;
        print(opts.json, issuedKeysJson(k), () =>
          [`api_key:     ${k.apiKey}`, `api_secret:  ${k.apiSecret}`, `webhook_key: ${k.webhookKey}`, '(the secret and webhook key cannot be shown again)'].join('\n'),
        );
      }),
    );
  cmd
    .command('revoke <api-key>')
    .description('revoke a credential set (its API key and its webhook key)')
    .option('--json', 'print JSON')
    .action((apiKey: string, opts, c: Command) =>
      withServices(c, async ({ credentials }) => {
        const r = await credentials.revoke({ apiKey });
        if (!r.ok) throw new CliError(`no active credentials with API key ${apiKey}`);
        print(opts.json, revokedKeyJson(apiKey), () => `revoked ${apiKey}`);
      }),
    );
  return cmd;
}
