import type { SqlConnection } from './sql/connection';

/** What GET /healthz reads from the database. */
export interface HealthStore {
  /** Writes the one probe row; throws when the database cannot take a write (disk full, read-only, locked). */
  probeWrite(nowMs: number): Promise<void>;
  /** Calls waiting to be dialled, and when the oldest of them was queued (null: none). */
  queue(): Promise<{ queued: number; oldestCreatedAt: number | null }>;
}

export function createHealthStore(db: SqlConnection): HealthStore {
  const probe = db.query('INSERT INTO health_probe (id, at) VALUES (1, $at) ON CONFLICT (id) DO UPDATE SET at = excluded.at');
  const queue = db.query(`SELECT count(*) AS queued, min(created_at) AS oldestCreatedAt FROM calls WHERE state = 'queued'`);
  return {
    async probeWrite(nowMs) {
      await probe.run({ at: nowMs });
    },
    async queue() {
      return (await queue.get()) as { queued: number; oldestCreatedAt: number | null };
    },
  };
}
