import type { IssuedCredential } from '../store';

/**
 * `keys create --json`: a new credential set; the secret and the webhook key are shown only
 * then. Fields may be added, never renamed.
 */
export function issuedKeysJson(k: IssuedCredential) {
  return { api_key: k.apiKey, api_secret: k.apiSecret, webhook_key: k.webhookKey };
}

/** `keys revoke --json`. Fields may be added, never renamed. */
export function revokedKeyJson(apiKey: string) {
  return { api_key: apiKey, revoked: true };
}
