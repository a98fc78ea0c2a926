import { webhookUrl as webhookUrlOf } from '../../outward';
import { sign } from '../../signing';

export interface ExampleInput {
  /** e.g. `http://192.168.1.10:8080`, no trailing slash. */
  baseUrl: string;
  apiKey: string;
  /** Known only right after creation; else a shell variable is used. */
  apiSecret?: string;
  webhookKey?: string;
}

export interface Examples {
  webhookUrl: string;
  curlApi: string;
  curlWebhook: string;
  signedScript: string;
  /** A worked signature for a fixed timestamp and body, when the secret is known. */
  signedCheck: { timestamp: string; body: string; signature: string } | null;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Ready-to-paste requests for both endpoints. The sample number and message are valid
 * (docs/http-api.md), so pasting a fresh example queues a real call.
 */
export function buildExamples({ baseUrl, apiKey, apiSecret, webhookKey }: ExampleInput): Examples {
  const secret = apiSecret ?? '$API_SECRET';
  const hook = webhookKey ?? '$WEBHOOK_KEY';
  const webhookUrl = webhookUrlOf(baseUrl, hook);
  const apiBody = JSON.stringify({ api_key: apiKey, api_secret: secret, phone_number: '5321234567', error_message: 'Disk full on db1' });
  const hookBody = JSON.stringify({ phone_number: '5321234567, 5337654321', error_message: 'Disk full on db1' });
  const signedBody = JSON.stringify({ api_key: apiKey, phone_number: '5321234567', error_message: 'Disk full on db1' });
  const curlApi = [
    `curl -sS -X POST ${quote(`${baseUrl}/api/call`)} \\`,
    `  -H 'Content-Type: application/json' \\`,
    // Without the secret at hand the body is double-quoted so the shell fills in $API_SECRET.
    `  -d ${apiSecret ? quote(apiBody) : `"${apiBody.replace(/"/g, '\\"')}"`}`,
  ].join('\n');
  const curlWebhook = [
    `curl -sS -X POST ${webhookKey ? quote(webhookUrl) : `"${webhookUrl}"`} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d ${quote(hookBody)}`,
  ].join('\n');
  const signedScript = [
    apiSecret ? `API_SECRET=${quote(apiSecret)}` : `# API_SECRET=<your API secret>`,
    `BODY=${quote(signedBody)}`,
    `TS=$(date +%s)`,
    `SIG=$(printf '%s.%s' "$TS" "$BODY" | openssl dgst -sha256 -hmac "$API_SECRET" -r | cut -d' ' -f1)`,
    `curl -sS -X POST ${quote(`${baseUrl}/api/call`)} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -H "X-Timestamp: $TS" -H "X-Signature: sha256=$SIG" \\`,
    `  -d "$BODY"`,
  ].join('\n');
  const timestamp = '1767225600'; // 2026-01-01T00:00:00Z: fixed, so the worked example never changes
  const signedCheck = apiSecret
    ? { timestamp, body: signedBody, signature: sign(apiSecret, timestamp, new TextEncoder().encode(signedBody)) }
    : null;
  return { webhookUrl, curlApi, curlWebhook, signedScript, signedCheck };
}

/** The base URL for examples: `panel.public_url`, else what the browser used to reach us. */
export function baseUrlFor(request: Request, publicUrl: string, trustProxy: boolean): string {
  if (publicUrl) return publicUrl.replace(/\/+$/, '');
  const url = new URL(request.url);
  const host = request.headers.get('host') ?? url.host;
  const proto = trustProxy ? (request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim() ?? url.protocol.slice(0, -1)) : url.protocol.slice(0, -1);
  return `${proto}://${host}`;
}
