import type { SqlConnection } from './sql/connection';

/** What GET /healthz reads from the database. */
export interface HealthStore {
  /** Writes the one probe row; throws when the database cannot take a write (disk full, read-only, locked). */
  probeWrite(nowMs: number): void;
  /** Calls waiting to be dialled, and when the oldest of them was queued (null: none). */
  queue(): { queued: number; oldestCreatedAt: number | null };
}

export function createHealthStore(db: SqlConnection): HealthStore {
  const probe = db.query('INSERT INTO health_probe (id, at) VALUES (1, $at) ON CONFLICT (id) DO UPDATE SET at = excluded.at');
  const queue = db.query(`SELECT count(*) AS queued, min(created_at) AS oldestCreatedAt FROM calls WHERE state = 'queued'`);
  return {
    probeWrite(nowMs) {
      probe.run({ at: nowMs });
    },
    queue() {
      return queue.get() as { queued: number; oldestCreatedAt: number | null };
    },
  };
}
