import { sign } from '../signing';

/**
 * The headers of one callback POST, signed exactly like inbound requests (docs/on-call.md
 * "Callbacks" and docs/http-api.md "Optional HMAC signing"): `X-Signature: sha256=<hex HMAC-SHA256 of "<ts>.<body>">`
 * keyed with the account's callback secret, so a receiver verifies ours with the code
 * it would use for us. Computed per attempt: a retry carries a fresh timestamp, so a
 * receiver's 300 s window never refuses a late retry.
 */
export function callbackHeaders(secret: string, body: string, nowMs: number): Record<string, string> {
  const timestamp = String(Math.floor(nowMs / 1000));
  return {
    'Content-Type': 'application/json',
    'User-Agent': 'voice-alert-callbacks',
    'X-Timestamp': timestamp,
    'X-Signature': sign(secret, timestamp, new TextEncoder().encode(body)),
  };
}
