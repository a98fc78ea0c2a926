import type { SqlConnection } from './sql/connection';
import { dialectOf } from './sql/dialect';

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

/** A stored row: an entry, or an aggregate of `count` refused requests from `firstAt` to `at`. */
export type HistoryRow = HistoryEntry & { id: number; count: number; firstAt: number };

/** api_history columns under the names of HistoryRow. */
export const HISTORY_COLUMNS = `id, at, request_id AS requestId, endpoint, source_ip AS sourceIp, status, message,
  account_id AS accountId, credential_id AS credentialId, count, coalesce(first_at, at) AS firstAt`;

const MINUTE_MS = 60_000;

/**
 * The one rule for which requests share a row: refused (4xx) with no account known, i.e.
 * what an anonymous flood produces (bad keys, rate limited, malformed). Their row key is
 * (address, endpoint, status, minute). Everything tied to an account keeps a row each.
 */
export function aggregationBucket(e: HistoryEntry): string | null {
  if (e.accountId !== null || e.status < 400 || e.status >= 500) return null;
  return `${e.sourceIp}|${e.endpoint}|${e.status}|${Math.floor(e.at / MINUTE_MS)}`;
}

export interface PruneLimits {
  /** Rows last touched before this (unix ms) go. */
  before: number;
  /** At most this many rows stay (the newest). */
  maxRows: number;
  /** At most this many rows are deleted by one call. */
  batchRows: number;
}

export interface HistoryStore {
  record(entry: HistoryEntry): Promise<void>;
  /**
   * `record` for many. On PostgreSQL the entries that keep a row each go in ONE insert (a
   * round trip and a statement for the server, not one each), those that aggregate
   * (aggregationBucket) one by one (one statement may not upsert a row twice); on SQLite
   * each is a statement of its own, the cheaper there.
   */
  recordAll(entries: readonly HistoryEntry[]): Promise<void>;
  list(filter?: { accountId?: string; limit?: number; offset?: number }): Promise<HistoryRow[]>;
  /** Deletes one batch of rows past the limits, oldest first; returns how many went. */
  prune(limits: PruneLimits): Promise<number>;
  count(): Promise<number>;
}

export function createHistoryStore(db: SqlConnection): HistoryStore {
  const dialect = dialectOf(db.dialect);
  // Looked up once: this runs for every answered request.
  const insert = db.query(
    `INSERT INTO api_history (at, first_at, request_id, endpoint, source_ip, status, message, account_id, credential_id, bucket)
     VALUES ($at, $at, $rid, $endpoint, $ip, $status, $message, $account, $cred, $bucket)
     ON CONFLICT (bucket) WHERE bucket IS NOT NULL DO UPDATE SET count = api_history.count + 1, at = ${dialect.greatest('api_history.at', 'excluded.at')}`,
  );
  const insertMany = db.query(
    `INSERT INTO api_history (at, first_at, request_id, endpoint, source_ip, status, message, account_id, credential_id, bucket)
     SELECT CAST(value ->> 'at' AS BIGINT), CAST(value ->> 'at' AS BIGINT), value ->> 'requestId', value ->> 'endpoint', value ->> 'sourceIp',
            CAST(value ->> 'status' AS INTEGER), value ->> 'message', value ->> 'accountId', value ->> 'credentialId', NULL
     FROM ${dialect.jsonObjects('$entries')}`,
  );
  const pruneOld = db.query(
    `DELETE FROM api_history WHERE id IN (SELECT id FROM api_history WHERE at < $before ORDER BY at LIMIT $batch)`,
  );
  const maxId = db.query('SELECT max(id) AS id FROM api_history');
  // Ids only grow (INTEGER PRIMARY KEY takes max + 1), so "id <= max - maxRows" leaves at
  // most maxRows rows without counting a million of them.
  const pruneOver = db.query(`DELETE FROM api_history WHERE id IN (SELECT id FROM api_history WHERE id <= $upTo ORDER BY id LIMIT $batch)`);
  const record = async (e: HistoryEntry): Promise<void> => {
    insert.send({
      at: e.at,
      rid: e.requestId,
      endpoint: e.endpoint,
      ip: e.sourceIp,
      status: e.status,
      message: e.message,
      account: e.accountId,
      cred: e.credentialId,
      bucket: aggregationBucket(e),
    });
  };
  return {
    record,
    async recordAll(entries) {
      // SQLite has no round trip to save, and its statement per row is the cheaper: 3.5 µs
      // a row against 5.4 µs in the JSON insert below (BENCHMARKS.md "The lookup cache
      // across our own commits").
      if (db.dialect === 'sqlite') {
        for (const e of entries) await record(e);
        return;
      }
      const own = entries.filter((e) => aggregationBucket(e) === null);
      // Sent, not waited for: the COMMIT waits for it (sql/connection.ts send).
      if (own.length > 0) insertMany.send({ entries: JSON.stringify(own) });
      for (const e of entries) if (aggregationBucket(e) !== null) await record(e);
    },
    async list({ accountId, limit = 100, offset = 0 } = {}) {
      const sql = `SELECT ${HISTORY_COLUMNS}
                   FROM api_history ${accountId ? 'WHERE account_id = $a' : ''}
                   ORDER BY id DESC LIMIT $limit OFFSET $offset`;
      const params: Record<string, string | number> = accountId ? { a: accountId, limit, offset } : { limit, offset };
      return (await db.query(sql).all(params)) as HistoryRow[];
    },
    async prune({ before, maxRows, batchRows }) {
      let deleted = (await pruneOld.run({ before, batch: batchRows })).changes;
      const top = ((await maxId.get()) as { id: number | null }).id;
      if (top !== null && deleted < batchRows && top > maxRows) {
        deleted += (await pruneOver.run({ upTo: top - maxRows, batch: batchRows - deleted })).changes;
      }
      return deleted;
    },
    async count() {
      return ((await db.query('SELECT count(*) AS n FROM api_history').get()) as { n: number }).n;
    },
  };
}
