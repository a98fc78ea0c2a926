import type { Credential, IssuedCredential } from '../store';
import { iso } from './iso';

/**
 * `keys create --json`: a new credential set; the secret and the webhook key are shown only
 * then. Fields may be added, never renamed.
 */
export function issuedKeysJson(k: IssuedCredential) {
  return { api_key: k.apiKey, api_secret: k.apiSecret, webhook_key: k.webhookKey };
}

/**
 * The webhook URL a tool posts to: the key in the query (docs/http-api.md "POST /webhook/receive").
 * `baseUrl` absolute, without a trailing slash, so the URL works as printed.
 */
export function webhookUrl(baseUrl: string, webhookKey: string): string {
  return `${baseUrl}/webhook/receive?key=${webhookKey}`;
}

/** `keys rotate-webhook --json`: the set's new webhook key, shown only then, and its URL. Fields may be added, never renamed. */
export function rotatedWebhookJson(apiKey: string, webhookKey: string, url: string) {
  return { api_key: apiKey, webhook_key: webhookKey, webhook_url: url };
}

/** `keys require-signature --json`. Fields may be added, never renamed. */
export function signatureJson(apiKey: string, required: boolean) {
  return { api_key: apiKey, require_signature: required };
}

/** `keys revoke --json`. Fields may be added, never renamed. */
export function revokedKeyJson(apiKey: string) {
  return { api_key: apiKey, revoked: true };
}

/** `keys list --json`: one credential set, never its secret or webhook key. Fields may be added, never renamed. */
export function keyJson(k: Credential) {
  return {
    api_key: k.apiKey,
    account_id: k.accountId,
    require_signature: k.requireSignature,
    default_policy_id: k.defaultPolicyId,
    created_at: iso(k.createdAt),
    revoked_at: iso(k.revokedAt),
  };
}
