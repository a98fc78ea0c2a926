import type { Database } from 'bun:sqlite';

/** One answered API request. Holds no secret and no body, by design. */
export interface HistoryEntry {
  at: number;
  requestId: string;
  endpoint: string;
  sourceIp: string;
  status: number;
  message: string;
  accountId: string | null;
  credentialId: string | null;
}

/** api_history columns under the names of HistoryEntry (+ id). */
export const HISTORY_COLUMNS = `id, at, request_id AS requestId, endpoint, source_ip AS sourceIp, status, message,
  account_id AS accountId, credential_id AS credentialId`;

export interface HistoryStore {
  record(entry: HistoryEntry): void;
  list(filter?: { accountId?: string; limit?: number; offset?: number }): (HistoryEntry & { id: number })[];
}

export function createHistoryStore(db: Database): HistoryStore {
  // Looked up once: this runs for every answered request.
  const insert = db.query(
    `INSERT INTO api_history (at, request_id, endpoint, source_ip, status, message, account_id, credential_id)
     VALUES ($at, $rid, $endpoint, $ip, $status, $message, $account, $cred)`,
  );
  return {
    record(e) {
      insert.run({
        at: e.at,
        rid: e.requestId,
        endpoint: e.endpoint,
        ip: e.sourceIp,
        status: e.status,
        message: e.message,
        account: e.accountId,
        cred: e.credentialId,
      });
    },
    list({ accountId, limit = 100, offset = 0 } = {}) {
      const sql = `SELECT ${HISTORY_COLUMNS}
                   FROM api_history ${accountId ? 'WHERE account_id = $a' : ''}
                   ORDER BY id DESC LIMIT $limit OFFSET $offset`;
      const params: Record<string, string | number> = accountId ? { a: accountId, limit, offset } : { limit, offset };
      return db.query(sql).all(params) as (HistoryEntry & { id: number })[];
    },
  };
}
