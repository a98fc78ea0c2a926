import type { AccountServices } from '../accounts';
import { webhookUrl } from '../outward';
import type { Store } from '../store';

/**
 * First start with an empty database (scripts/run): a Starter account with credentials,
 * printed once with curl lines that work as they are (`base`: config/public-url.ts). Later
 * starts print nothing.
 */
export async function createDemoAccountIfEmpty(services: AccountServices, store: Store, base: string): Promise<string | null> {
  if ((await store.accounts.count()) > 0) return null;
  const created = await services.accounts.create({ name: 'demo', plan: 'starter' });
  const issued = created.ok ? await services.credentials.create(created.account.id) : null;
  // Neither can be refused (a fixed valid name and plan, an account just made): a refusal is a bug.
  if (!created.ok || !issued?.ok) throw new Error('the demo account could not be created');
  const { account } = created;
  const k = issued.issued;
  return [
    '',
    'A demo Starter account was created (15 calls a month). These credentials are shown only now:',
    `  account:     ${account.id}`,
    `  api_key:     ${k.apiKey}`,
    `  api_secret:  ${k.apiSecret}`,
    `  webhook_key: ${k.webhookKey}`,
    '',
    'The number 5321234567 below is a PLACEHOLDER, not a test line: replace it with your own',
    'mobile number (10 digits, 5xxxxxxxxx) so the call rings your phone and nobody else\'s.',
    '',
    'Queue a call:',
    `  curl -s ${base}/api/call -H 'Content-Type: application/json' \\`,
    `    -d '{"api_key":"${k.apiKey}","api_secret":"${k.apiSecret}","phone_number":"5321234567","error_message":"Test alarm"}'`,
    'or through the webhook:',
    `  curl -s '${webhookUrl(base, k.webhookKey)}' -H 'Content-Type: application/json' \\`,
    `    -d '{"phone_number":"5321234567","error_message":"Test alarm"}'`,
    '',
  ].join('\n');
}
