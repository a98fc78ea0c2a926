import type { Credential, Store } from '../store';
import { secretMatches } from './credential-check';
import type { Lookups } from './lookup-cache';

/**
 * What a request shows to say who it is. Each endpoint decides from its own fields which of
 * these it has (and what "nothing presented" means for it) before calling `authenticate`.
 */
export type Presented =
  /** API key with its secret: the secret is compared here (constant time). */
  | { kind: 'api_secret'; apiKey: string; apiSecret: string }
  /** API key alone: the request is signed with the API secret; `authorize` verifies it. */
  | { kind: 'api_signature'; apiKey: string }
  /** The account's webhook key: also the HMAC key of a signed request (docs/http-api.md "Optional HMAC signing"). */
  | { kind: 'webhook_key'; webhookKey: string };

export type Authentication =
  | {
      ok: true;
      credential: Credential;
      /** The HMAC key for this credential as presented; asked only for a signed request (it decrypts). */
      signingKey: () => Promise<string>;
    }
  | { ok: false; code: 'invalid_api_credentials' | 'invalid_webhook_key' };

/**
 * The one credential check of every authenticated endpoint: finds the active set the request
 * names and proves what can be proved without the payload. A revoked or unknown key and a
 * wrong secret refuse alike, so the answer says nothing about which part was wrong.
 * `authorize` follows with what needs the payload or the account (signature, replay, plan).
 */
export async function authenticate(store: Store, lookups: Lookups, p: Presented): Promise<Authentication> {
  if (p.kind === 'webhook_key') {
    const credential = p.webhookKey ? await lookups.credentialByWebhookKey(p.webhookKey) : null;
    if (!credential) return { ok: false, code: 'invalid_webhook_key' };
    return { ok: true, credential, signingKey: () => Promise.resolve(p.webhookKey) };
  }
  const credential = await lookups.credentialByApiKey(p.apiKey);
  if (!credential || (p.kind === 'api_secret' && !secretMatches(credential, p.apiSecret))) {
    return { ok: false, code: 'invalid_api_credentials' };
  }
  return { ok: true, credential, signingKey: async () => (await store.credentials.apiSecretOf(credential.id))! };
}
