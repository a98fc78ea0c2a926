import type { SqlConnection } from './sql/connection';
import { dialectOf } from './sql/dialect';

/** How long a repeated Idempotency-Key replays the first answer (docs/http-api.md "Retried deliveries": 24 h). */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;

export interface IdempotencyStore {
  /** The outcome remembered for this key, if it is younger than the window. */
  find(credentialId: string, endpoint: string, key: string, now: number): Promise<unknown | null>;
  save(credentialId: string, endpoint: string, key: string, outcome: unknown, now: number): Promise<void>;
  prune(now: number): Promise<number>;
}

export function createIdempotencyStore(db: SqlConnection): IdempotencyStore {
  // REPLACE: an expired entry with the same key starts a new window.
  const replace = db.query(
    dialectOf(db.dialect).insertOrReplace('idempotency', ['credential_id', 'endpoint', 'key', 'outcome', 'created_at'], ['credential_id', 'endpoint', 'key']),
  );
  return {
    async find(credentialId, endpoint, key, now) {
      const row = (await db
        .query(
          'SELECT outcome FROM idempotency WHERE credential_id = $c AND endpoint = $e AND key = $k AND created_at > $since',
        )
        .get({ c: credentialId, e: endpoint, k: key, since: now - IDEMPOTENCY_WINDOW_MS })) as
        | { outcome: string }
        | null;
      return row ? JSON.parse(row.outcome) : null;
    },
    async save(credentialId, endpoint, key, outcome, now) {
      replace.send({ credential_id: credentialId, endpoint, key, outcome: JSON.stringify(outcome), created_at: now });
    },
    async prune(now) {
      return (await db.query('DELETE FROM idempotency WHERE created_at <= $t').run({ t: now - IDEMPOTENCY_WINDOW_MS })).changes;
    },
  };
}
