import type { Credential, IssuedCredential, Store, Tx } from '../store';

/**
 * Which credential set an operation is about. `accountId` set (the panel, where the path
 * names an account): the set MUST belong to that account, or it is not found, so one
 * account's owner cannot touch another's keys by guessing them. Unset (the CLI, run by
 * the administrator): any account's set.
 */
export interface CredentialRef {
  apiKey: string;
  accountId?: string;
}

export type IssueResult = { ok: true; issued: IssuedCredential } | { ok: false; code: 'NO_ACCOUNT' };
export type CredentialResult = { ok: true } | { ok: false; code: 'NO_CREDENTIAL' };
export type RotateResult = { ok: true; webhookKey: string } | { ok: false; code: 'NO_CREDENTIAL' };

/**
 * API credentials (API key, API secret, webhook key) for the panel and the CLI alike.
 * The secret and the webhook key are returned once, at creation or rotation, never again.
 * Only active (not revoked) sets can be changed; a revoked set is not found.
 */
export interface CredentialsService {
  create(accountId: string, options?: { requireSignature?: boolean }): Promise<IssueResult>;
  /** The account's credential sets, revoked ones too, oldest first (`keys list`); never a secret. */
  list(accountId: string): Promise<Credential[]>;
  /** Revokes the whole set: its API key and its webhook key stop working at once. */
  revoke(ref: CredentialRef): Promise<CredentialResult>;
  /** Required: requests with this set must carry an HMAC signature (unsigned ones are refused). */
  setRequireSignature(ref: CredentialRef, required: boolean): Promise<CredentialResult>;
  /** A new webhook key for the set; the old one stops working at once. */
  rotateWebhookKey(ref: CredentialRef): Promise<RotateResult>;
}

export function createCredentialsService(store: Store): CredentialsService {
  // Inside the transaction, so the check and the change see the same row.
  const found = async (tx: Tx, ref: CredentialRef): Promise<boolean> => {
    return (await tx.credentials.findByApiKeyInAccount(ref.accountId ?? null, ref.apiKey)) !== null;
  };
  return {
    list: (accountId) => store.credentials.listForAccount(accountId),
    create(accountId, { requireSignature = false } = {}) {
      return store.transaction(async (tx): Promise<IssueResult> => {
        if (!(await tx.accounts.get(accountId))) return { ok: false, code: 'NO_ACCOUNT' };
        return { ok: true, issued: await tx.credentials.create(accountId, { requireSignature }) };
      });
    },
    revoke(ref) {
      return store.transaction(async (tx): Promise<CredentialResult> =>
        (await found(tx, ref)) && (await tx.credentials.revoke(ref.apiKey)) ? { ok: true } : { ok: false, code: 'NO_CREDENTIAL' },
      );
    },
    setRequireSignature(ref, required) {
      return store.transaction(async (tx): Promise<CredentialResult> =>
        (await found(tx, ref)) && (await tx.credentials.setRequireSignature(ref.apiKey, required)) ? { ok: true } : { ok: false, code: 'NO_CREDENTIAL' },
      );
    },
    rotateWebhookKey(ref) {
      return store.transaction(async (tx): Promise<RotateResult> => {
        const webhookKey = (await found(tx, ref)) ? await tx.credentials.rotateWebhookKey(ref.apiKey) : null;
        return webhookKey ? { ok: true, webhookKey } : { ok: false, code: 'NO_CREDENTIAL' };
      });
    },
  };
}
