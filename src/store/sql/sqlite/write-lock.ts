/**
 * SQLite's write lock, waited for on a timer instead of in SQLite's busy handler.
 *
 * One connection of one process writes at a time. With `PRAGMA busy_timeout` SQLite waits for
 * a lock another process holds (the CLI adding a key, an operator's `sqlite3` shell) by
 * sleeping inside the statement: the appliance's only thread, so for up to
 * `store.busy_timeout_ms` nothing else ran, not `/healthz`, not `/metrics`, not the panel's
 * files (docs/high-availability.md: no database wait blocks the event loop, on either
 * store). The writing connection therefore has no busy timeout; BEGIN IMMEDIATE answers
 * SQLITE_BUSY at once, and it is tried again after a pause that doubles up to
 * LOCK_RETRY_MAX_MS, the event loop serving in between.
 */

/** The longest pause between two tries: how late a freed lock may be noticed. */
export const LOCK_RETRY_MAX_MS = 25;

/** SQLITE_BUSY and its extended codes (SQLITE_BUSY_RECOVERY, …): another connection holds a lock. */
export function isBusy(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * Runs `begin` until it takes the lock. Before each pause `stillWanted` says whether anyone
 * still waits for it (it may give up on those who waited too long); false ends the wait
 * without the lock. Any error but SQLITE_BUSY is thrown.
 */
export async function beginWhenFree(begin: () => void, stillWanted: () => boolean): Promise<boolean> {
  for (let pause = 1; ; pause = Math.min(pause * 2, LOCK_RETRY_MAX_MS)) {
    try {
      begin();
      return true;
    } catch (e) {
      if (!isBusy(e)) throw e;
    }
    if (!stillWanted()) return false;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}
