import type { Store } from '../store';

/**
 * First start with an empty database (scripts/run): a Starter account with credentials,
 * printed once with curl lines that work as they are. Later starts print nothing.
 */
export function createDemoAccountIfEmpty(store: Store, url: string): string | null {
  if (store.accounts.count() > 0) return null;
  const account = store.accounts.create({ name: 'demo', plan: 'starter' });
  const k = store.credentials.create(account.id);
  const base = url.replace('://0.0.0.0:', '://127.0.0.1:').replace('://[::]:', '://[::1]:');
  return [
    '',
    'A demo Starter account was created (15 calls a month). These credentials are shown only now:',
    `  account:     ${account.id}`,
    `  api_key:     ${k.apiKey}`,
    `  api_secret:  ${k.apiSecret}`,
    `  webhook_key: ${k.webhookKey}`,
    '',
    'Queue a call:',
    `  curl -s ${base}/api/call -H 'Content-Type: application/json' \\`,
    `    -d '{"api_key":"${k.apiKey}","api_secret":"${k.apiSecret}","phone_number":"5321234567","error_message":"Test alarm"}'`,
    'or through the webhook:',
    `  curl -s '${base}/webhook/receive?key=${k.webhookKey}' -H 'Content-Type: application/json' \\`,
    `    -d '{"phone_number":"5321234567","error_message":"Test alarm"}'`,
    '',
  ].join('\n');
}
