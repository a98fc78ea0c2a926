import type { SqlConnection } from './sql/connection';

/**
 * The signatures already accepted, shared by every appliance on the database (docs/http-api.md
 * "Optional HMAC signing"): one signed request sent again, to this appliance or another, would queue and
 * charge again. Kept until the timestamp alone refuses the request; then pruned.
 */
export interface SignedRequestsStore {
  /**
   * Remembers the signature until `expiresAt` (unix ms); false when it was seen before and
   * has not expired. Inside the transaction that accepts the request: a request that is not
   * accepted after all (the database went away) leaves nothing behind, so the tool's retry
   * of the same bytes is taken.
   */
  firstUse(credentialId: string, signature: string, expiresAt: number, now: number): Promise<boolean>;
  /** Deletes what expired before `now`; returns how many. */
  prune(now: number): Promise<number>;
}

export function createSignedRequestsStore(db: SqlConnection): SignedRequestsStore {
  // An expired row of the same signature is taken over: its timestamp is refused anyway.
  const remember = db.query(
    `INSERT INTO signed_requests (credential_id, signature, expires_at) VALUES ($credential, $signature, $expires)
     ON CONFLICT (credential_id, signature) DO UPDATE SET expires_at = excluded.expires_at
       WHERE signed_requests.expires_at < $now`,
  );
  const prune = db.query('DELETE FROM signed_requests WHERE expires_at < $now');
  return {
    async firstUse(credentialId, signature, expiresAt, now) {
      const r = await remember.run({ credential: credentialId, signature: signature.trim().toLowerCase(), expires: expiresAt, now });
      return r.changes === 1;
    },
    async prune(now) {
      return (await prune.run({ now })).changes;
    },
  };
}
