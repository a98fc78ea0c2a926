import type { SqlConnection } from './sql/connection';

/**
 * Which appliance runs the work that must run once for the whole store: sending outcome
 * callbacks and advancing escalations. On SQLite there is one appliance: always this one.
 * On PostgreSQL the leader is whoever holds a session advisory lock: it is let go when
 * that appliance's connection ends (the process died, the host went away), and the next
 * appliance to ask takes it. Asked before each round of that work; checked against the
 * server at most once per `recheckMs`, because a connection lost and made anew has lost
 * the lock without telling us.
 */
export type Leadership = () => boolean;

/** Advisory lock key of the leadership (any number below 2^31, the same on every appliance). */
const LEADER_LOCK = 0x5641_0002;

export function createLeadership(db: SqlConnection, recheckMs = 1000, now: () => number = () => performance.now()): Leadership {
  if (db.dialect !== 'postgres') return () => true;
  const holds = db.query(
    `SELECT count(*) AS n FROM pg_locks
     WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND classid = 0 AND objid = ${LEADER_LOCK} AND objsubid = 1 AND granted`,
  );
  const tryTake = db.query(`SELECT pg_try_advisory_lock(${LEADER_LOCK}) AS got`);
  let leading = false;
  let checkedAt = -Infinity;
  return () => {
    if (now() - checkedAt < recheckMs) return leading;
    checkedAt = now();
    try {
      leading = (holds.get() as { n: number }).n > 0 || (tryTake.get() as { got: number }).got === 1;
    } catch {
      leading = false;
    }
    return leading;
  };
}
