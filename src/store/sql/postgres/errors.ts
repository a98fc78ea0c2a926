/**
 * How the PostgreSQL store tells a failure of the database's answer from a failure of the
 * way to it. Bun.SQL gives a server's error its SQLSTATE in `errno` (e.g. 23505) and its own
 * errors a `code` (ERR_POSTGRES_CONNECTION_CLOSED, …); the operating system's, an `E…` code.
 */

/** deadlock_detected, serialization_failure: the transaction lost a race and may well pass when run again. */
const CONFLICT = new Set(['40P01', '40001']);

/**
 * admin_shutdown (a restart or failover), crash_shutdown, cannot_connect_now (starting up),
 * and Bun.SQL's 08xxx connection exceptions: the connection is dead, whatever was not
 * committed on it is lost.
 */
const CONNECTION_GONE = new Set(['57P01', '57P02', '57P03', '08000', '08003', '08006', '08001', '08004']);

/** query_canceled (statement_timeout), lock_not_available (lock_timeout): the database is too slow right now. */
const TOO_SLOW = new Set(['57014', '55P03']);

/** Errors of the connection rather than of a statement (Bun.SQL's codes, the OS's). */
const CONNECTION_TROUBLE = /CONNECTION|ECONN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EPIPE|SOCKET|closed|connect/i;

export function sqlStateOf(e: unknown): string | undefined {
  const errno = (e as { errno?: unknown })?.errno;
  return typeof errno === 'string' && /^[0-9A-Z]{5}$/.test(errno) ? errno : undefined;
}

export function isConflict(e: unknown): boolean {
  const s = sqlStateOf(e);
  return s !== undefined && CONFLICT.has(s);
}

export function isTooSlow(e: unknown): boolean {
  const s = sqlStateOf(e);
  return s !== undefined && TOO_SLOW.has(s);
}

/** The connection this came from is gone: drop it from the pool; nothing uncommitted on it survived. */
export function isConnectionLost(e: unknown): boolean {
  const s = sqlStateOf(e);
  if (s !== undefined) return CONNECTION_GONE.has(s);
  const err = e as { code?: unknown; message?: unknown };
  return CONNECTION_TROUBLE.test(`${String(err?.code ?? '')} ${String(err?.message ?? '')}`);
}
