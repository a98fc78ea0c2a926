import { IN_ACCOUNT, type AccountScope } from './account-scope';
import type { SqlConnection } from './sql/connection';
import type { Clock } from '../clock';
import { newId, randomToken } from '../ids';
import { digest } from '../digest';
import type { SecretBox } from './secret-box';

/** A credential set as the store keeps it: no secret in plain text. */
export interface Credential {
  id: string;
  accountId: string;
  apiKey: string;
  secretHash: Uint8Array;
  requireSignature: boolean;
  createdAt: number;
  revokedAt: number | null;
  /** The escalation policy its requests follow when they name none (src/escalation). */
  defaultPolicyId: string | null;
}

/** What `keys create` hands out once; never readable again in this form. */
export interface IssuedCredential {
  id: string;
  accountId: string;
  apiKey: string;
  apiSecret: string;
  webhookKey: string;
  requireSignature: boolean;
}

interface CredentialRow {
  id: string;
  account_id: string;
  api_key: string;
  secret_hash: Uint8Array;
  secret_enc: Uint8Array;
  require_signature: number;
  created_at: number;
  revoked_at: number | null;
  default_policy_id?: string | null;
}

function toCredential(row: CredentialRow): Credential {
  return {
    id: row.id,
    accountId: row.account_id,
    apiKey: row.api_key,
    secretHash: row.secret_hash,
    requireSignature: row.require_signature === 1,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    defaultPolicyId: row.default_policy_id ?? null,
  };
}

export interface CredentialsStore {
  create(accountId: string, options?: { requireSignature?: boolean }): Promise<IssuedCredential>;
  /** Active (not revoked) set by its API key. */
  findByApiKey(apiKey: string): Promise<Credential | null>;
  /** As findByApiKey, when the set belongs to the account (account-scope.ts). */
  findByApiKeyInAccount(account: AccountScope, apiKey: string): Promise<Credential | null>;
  /** Active set by its webhook key (looked up by digest). */
  findByWebhookKey(webhookKey: string): Promise<Credential | null>;
  /** The API secret in plain text, for verifying an HMAC signature. */
  apiSecretOf(credentialId: string): Promise<string | null>;
  listForAccount(accountId: string): Promise<Credential[]>;
  /** Revokes the whole set (API key and webhook key); false when no active set has that key. */
  revoke(apiKey: string): Promise<boolean>;
  setRequireSignature(apiKey: string, required: boolean): Promise<boolean>;
  /** Replaces the webhook key of an active set; returns the new key once. */
  rotateWebhookKey(apiKey: string): Promise<string | null>;
}

export const newApiKey = () => `vak_${randomToken(24)}`;
export const newApiSecret = () => `vas_${randomToken(40)}`;
export const newWebhookKey = () => `vwk_${randomToken(32)}`;

export function createCredentialsStore(db: SqlConnection, box: SecretBox, clock: Clock): CredentialsStore {
  return {
    async create(accountId, { requireSignature = false } = {}) {
      const issued: IssuedCredential = {
        id: newId('cred'),
        accountId,
        apiKey: newApiKey(),
        apiSecret: newApiSecret(),
        webhookKey: newWebhookKey(),
        requireSignature,
      };
      await db.query(
        `INSERT INTO credentials (id, account_id, api_key, secret_hash, secret_enc, webhook_key_hash,
                                  require_signature, created_at)
         VALUES ($id, $account, $apiKey, $secretHash, $secretEnc, $hookHash, $sig, $now)`,
      ).run({
        id: issued.id,
        account: accountId,
        apiKey: issued.apiKey,
        secretHash: digest(issued.apiSecret),
        secretEnc: box.seal(issued.apiSecret),
        hookHash: digest(issued.webhookKey),
        sig: requireSignature ? 1 : 0,
        now: clock(),
      });
      return issued;
    },
    async findByApiKey(apiKey) {
      const row = (await db
        .query('SELECT * FROM credentials WHERE api_key = $apiKey AND revoked_at IS NULL')
        .get({ apiKey })) as CredentialRow | null;
      return row ? toCredential(row) : null;
    },
    async findByApiKeyInAccount(account, apiKey) {
      const row = (await db
        .query(`SELECT * FROM credentials WHERE api_key = $apiKey AND revoked_at IS NULL AND ${IN_ACCOUNT}`)
        .get({ apiKey, account })) as CredentialRow | null;
      return row ? toCredential(row) : null;
    },
    async findByWebhookKey(webhookKey) {
      const row = (await db
        .query('SELECT * FROM credentials WHERE webhook_key_hash = $h AND revoked_at IS NULL')
        .get({ h: digest(webhookKey) })) as CredentialRow | null;
      return row ? toCredential(row) : null;
    },
    async apiSecretOf(credentialId) {
      const row = (await db.query('SELECT secret_enc FROM credentials WHERE id = $id').get({ id: credentialId })) as
        | { secret_enc: Uint8Array }
        | null;
      return row ? box.open(row.secret_enc) : null;
    },
    async listForAccount(accountId) {
      return (
        (await db.query('SELECT * FROM credentials WHERE account_id = $a ORDER BY created_at, id').all({
          a: accountId,
        })) as CredentialRow[]
      ).map(toCredential);
    },
    async revoke(apiKey) {
      const r = await db
        .query('UPDATE credentials SET revoked_at = $now WHERE api_key = $apiKey AND revoked_at IS NULL')
        .run({ apiKey, now: clock() });
      return r.changes === 1;
    },
    async setRequireSignature(apiKey, required) {
      const r = await db
        .query('UPDATE credentials SET require_signature = $r WHERE api_key = $apiKey AND revoked_at IS NULL')
        .run({ apiKey, r: required ? 1 : 0 });
      return r.changes === 1;
    },
    async rotateWebhookKey(apiKey) {
      const key = newWebhookKey();
      const r = await db
        .query(
          'UPDATE credentials SET webhook_key_hash = $h WHERE api_key = $apiKey AND revoked_at IS NULL',
        )
        .run({ apiKey, h: digest(key) });
      return r.changes === 1 ? key : null;
    },
  };
}
