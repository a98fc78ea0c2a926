import { Command } from 'commander';
import { commandBaseUrl } from '../config';
import { issuedKeysJson, iso, keyJson, revokedKeyJson, rotatedWebhookJson, signatureJson, webhookUrl } from '../outward';
import { print, withServices } from './context';
import { accountThenId, refusal, requireAccount } from './refusal';
import { printList, row } from './text';

/**
 * `keys`: the administrator's side of the credential rules in src/accounts/credentials.ts,
 * the same service the panel's API keys page calls (routes/keys-routes.ts): what one can do
 * to a set, the other can (docs/panel.md "Where each task lives").
 */
export function keysCommand(): Command {
  const cmd = new Command('keys').description('API credentials (API key, API secret, webhook key)');
  cmd
    .command('create')
    .description('create a credential set; the secret and webhook key are shown only now')
    .argument('<account>', 'account id (acc_…)')
    .option('--require-signature', 'refuse unsigned requests made with these credentials')
    .option('--json', 'print JSON')
    .action((accountId: string, opts, c: Command) =>
      withServices(c, async ({ credentials }) => {
        const r = await credentials.create(accountId, { requireSignature: Boolean(opts.requireSignature) });
        if (!r.ok) throw refusal('account_not_found', accountId);
        const k = r.issued;
        print(opts.json, issuedKeysJson(k), () =>
          [`api_key:     ${k.apiKey}`, `api_secret:  ${k.apiSecret}`, `webhook_key: ${k.webhookKey}`, '(the secret and webhook key cannot be shown again)'].join('\n'),
        );
      }),
    );
  cmd
    .command('list')
    .description("the account's credential sets, revoked ones too: API key, signature required, default policy; never a secret")
    .argument('<account>', 'account id (acc_…)')
    .option('--json', 'print JSON')
    .action((accountId: string, opts, c: Command) =>
      withServices(c, async ({ credentials }, store) => {
        await requireAccount(store, accountId);
        printList(opts.json, await credentials.list(accountId), keyJson, (k) =>
          row(k.apiKey, k.revokedAt === null ? 'active' : `revoked ${iso(k.revokedAt)}`, k.requireSignature ? 'signature required' : null, k.defaultPolicyId, `created ${iso(k.createdAt)}`),
        );
      }),
    );
  cmd
    .command('revoke')
    .description('revoke a credential set (its API key and its webhook key)')
    .argument('<account>', 'account id (acc_…); the older form gives only the API key')
    .argument('[api-key]', 'the API key of the set')
    // `revoke ACCOUNT API_KEY`; the older `revoke API_KEY` (any account's key) still works.
    .option('--json', 'print JSON')
    .action((first: string, second: string | undefined, opts, c: Command) =>
      withServices(c, async ({ credentials }, store) => {
        const { accountId, id: apiKey } = accountThenId(first, second);
        if (accountId !== null) await requireAccount(store, accountId);
        const r = await credentials.revoke(accountId === null ? { apiKey } : { apiKey, accountId });
        if (!r.ok) throw refusal('credential_not_found', apiKey);
        print(opts.json, revokedKeyJson(apiKey), () => `revoked ${apiKey}`);
      }),
    );
  cmd
    .command('rotate-webhook')
    .description('give a credential set a new webhook key, printed once with its URL; the old webhook key stops working at once')
    .argument('<account>', 'account id (acc_…)')
    .argument('<api-key>', 'the API key of the set')
    .option('--json', 'print JSON')
    .action((accountId: string, apiKey: string, opts, c: Command) =>
      withServices(c, async ({ credentials }, store, config) => {
        await requireAccount(store, accountId);
        const r = await credentials.rotateWebhookKey({ apiKey, accountId });
        if (!r.ok) throw refusal('credential_not_found', apiKey);
        // Absolute, from panel.public_url or the address the service listens on: usable as printed.
        const url = webhookUrl(commandBaseUrl(config), r.webhookKey);
        print(opts.json, rotatedWebhookJson(apiKey, r.webhookKey, url), () =>
          [`webhook_key: ${r.webhookKey}`, `webhook_url: ${url}`, '(shown only now; the old webhook key no longer works)'].join('\n'),
        );
      }),
    );
  cmd
    .command('require-signature')
    .description('refuse unsigned requests made with a credential set from now on (--off: accept them again)')
    .argument('<account>', 'account id (acc_…)')
    .argument('<api-key>', 'the API key of the set')
    .option('--off', 'no longer require a signature')
    .option('--json', 'print JSON')
    .action((accountId: string, apiKey: string, opts, c: Command) =>
      withServices(c, async ({ credentials }, store) => {
        await requireAccount(store, accountId);
        const required = !opts.off;
        const r = await credentials.setRequireSignature({ apiKey, accountId }, required);
        if (!r.ok) throw refusal('credential_not_found', apiKey);
        print(opts.json, signatureJson(apiKey, required), () => `${apiKey}\t${required ? 'signature required' : 'signature not required'}`);
      }),
    );
  return cmd;
}
