import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sign } from '../../src/signing';
import { applianceDir, provision, type ApplianceDir, type RunningAppliance } from '../helpers/appliance';
import { post } from '../helpers/http';

/**
 * `keys rotate-webhook` and `keys require-signature` (docs/cli.md "Accounts and keys"): what the
 * panel's API keys page does to a credential set, from the command line, against a running
 * appliance, so the effect is seen where a monitoring tool sees it.
 */
let dir: ApplianceDir;
let app: RunningAppliance;
let cred: ReturnType<typeof provision>;

/**
 * What a running appliance answers once it has seen a change made by a command: at once on
 * SQLite, within a second on PostgreSQL (docs/cli.md "Accounts and keys"), so polled.
 */
const seen = (request: () => Promise<{ status: number; json: any }>) =>
  expect.poll(
    async () => {
      const r = await request();
      return `${r.status} ${r.json.message ?? ''}`.trim();
    },
    { timeout: 15_000, interval: 100 },
  );

const alert = JSON.stringify({ phone_number: '5321234567', error_message: 'Disk full on db1' });
const unsigned = (url: string) => post(url, alert, { 'content-type': 'application/json' });
const signed = (url: string, key: string) => {
  const ts = String(Math.floor(Date.now() / 1000));
  return post(url, alert, { 'content-type': 'application/json', 'x-timestamp': ts, 'x-signature': sign(key, ts, new TextEncoder().encode(alert)) });
};

beforeAll(async () => {
  dir = applianceDir();
  cred = provision(dir, 'enterprise', ['--monthly-credit', '1000']);
  app = await dir.start();
});
afterAll(() => app?.stop());

describe('keys rotate-webhook ACCOUNT API_KEY', () => {
  it('prints the new key once with its absolute URL; the old URL is refused at once, the new one accepted', async () => {
    const oldUrl = `${app.url}/webhook/receive?key=${cred.webhookKey}`;
    expect((await unsigned(oldUrl)).status).toBe(200);

    const rotated = dir.cliJson(['keys', 'rotate-webhook', cred.accountId, cred.apiKey]);
    expect(rotated).toEqual({ api_key: cred.apiKey, webhook_key: expect.stringMatching(/^vwk_/), webhook_url: `${app.url}/webhook/receive?key=${rotated.webhook_key}` });
    expect(rotated.webhook_key).not.toBe(cred.webhookKey);

    await seen(() => unsigned(oldUrl)).toBe('403 Invalid webhook key');
    await seen(() => unsigned(rotated.webhook_url)).toMatch(/^200 /);

    // The text: the key and the URL, each once, and nothing secret beyond them.
    const text = dir.cli(['keys', 'rotate-webhook', cred.accountId, cred.apiKey]);
    expect(text.status).toBe(0);
    const lines = text.stdout.trimEnd().split('\n');
    const key = /^webhook_key: (vwk_\S+)$/.exec(lines[0]!)![1]!;
    expect(lines[1]).toBe(`webhook_url: ${app.url}/webhook/receive?key=${key}`);
    expect(lines[2]).toMatch(/shown only now/);
    await seen(() => unsigned(rotated.webhook_url)).toBe('403 Invalid webhook key');
    cred.webhookKey = key;
  });

  it('an unknown account, an unknown key, another account\'s key or a revoked one: exit 1, the catalogue\'s words', () => {
    expect(dir.cli(['keys', 'rotate-webhook', 'acc_nosuch', cred.apiKey])).toEqual({ status: 1, stdout: '', stderr: 'voice-alert: Account not found: acc_nosuch\n' });
    expect(dir.cli(['keys', 'rotate-webhook', cred.accountId, 'vak_nosuch'])).toEqual({ status: 1, stdout: '', stderr: 'voice-alert: Credentials not found: vak_nosuch\n' });
    const other = provision(dir, 'starter');
    expect(dir.cli(['keys', 'rotate-webhook', other.accountId, cred.apiKey])).toEqual({ status: 1, stdout: '', stderr: `voice-alert: Credentials not found: ${cred.apiKey}\n` });
    dir.cliJson(['keys', 'revoke', other.accountId, other.apiKey]);
    expect(dir.cli(['keys', 'rotate-webhook', other.accountId, other.apiKey])).toMatchObject({ status: 1, stderr: `voice-alert: Credentials not found: ${other.apiKey}\n` });
    expect(dir.cli(['keys', 'rotate-webhook', cred.accountId])).toMatchObject({ status: 2, stdout: '', stderr: expect.stringMatching(/^voice-alert: missing required argument 'api-key'; see voice-alert keys rotate-webhook --help\n$/) });
  });
});

describe('keys require-signature ACCOUNT API_KEY [--off]', () => {
  it('unsigned requests are refused from then on, signed ones accepted; --off accepts unsigned again; keys list shows it', async () => {
    const url = `${app.url}/webhook/receive?key=${cred.webhookKey}`;
    await seen(() => unsigned(url)).toMatch(/^200 /);

    expect(dir.cliJson(['keys', 'require-signature', cred.accountId, cred.apiKey])).toEqual({ api_key: cred.apiKey, require_signature: true });
    await seen(() => unsigned(url)).toBe('403 Signature required');
    expect((await signed(url, cred.webhookKey)).status).toBe(200);
    expect(dir.cliJson<{ api_key: string; require_signature: boolean }[]>(['keys', 'list', cred.accountId]).find((k) => k.api_key === cred.apiKey)).toMatchObject({ require_signature: true });

    const off = dir.cli(['keys', 'require-signature', cred.accountId, cred.apiKey, '--off']);
    expect(off).toEqual({ status: 0, stdout: `${cred.apiKey}\tsignature not required\n`, stderr: '' });
    await seen(() => unsigned(url)).toMatch(/^200 /);
  });

  it('an unknown account or key: exit 1, the catalogue\'s words', () => {
    expect(dir.cli(['keys', 'require-signature', 'acc_nosuch', cred.apiKey])).toEqual({ status: 1, stdout: '', stderr: 'voice-alert: Account not found: acc_nosuch\n' });
    expect(dir.cli(['keys', 'require-signature', cred.accountId, 'vak_nosuch', '--off'])).toEqual({ status: 1, stdout: '', stderr: 'voice-alert: Credentials not found: vak_nosuch\n' });
  });
});
