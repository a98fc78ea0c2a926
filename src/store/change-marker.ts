import type { SqlConnection, SqlStatement } from './sql/connection';

/**
 * A number that moves whenever the database may have changed since the previous call:
 *   - `PRAGMA data_version` changes when ANOTHER connection commits (the CLI in another
 *     process revoking a key, a writer on a second connection);
 *   - `total_changes()` counts every row this connection ever changed (the panel revoking
 *     a key through the same connection), committed or not.
 * Two equal markers mean neither counter moved in between, so anything read between them
 * is still what the database holds. Callers compare with the marker they saw last; the
 * number itself means nothing. Built for the intake's lookup cache, which asks per request.
 */
export type ChangeMarker = () => number;

export function createChangeMarker(db: SqlConnection): ChangeMarker {
  if (db.dialect === 'postgres') return postgresChangeMarker(db as SqlConnection & { totalChanges(): number });
  let dataVersion: SqlStatement | null = null;
  let totalChanges: SqlStatement | null = null;
  let seenVersion = -1;
  let seenChanges = -1;
  let marker = 0;
  return () => {
    // query(), not prepare(): the connection finalizes its cached statements on close, so
    // these never keep the file from closing cleanly. Two plain statements, not one over
    // pragma_data_version: that table-valued form prepares the pragma anew on every call
    // (4.3 µs against 2.6 µs here). No object per call: this runs for every request.
    dataVersion ??= db.query('PRAGMA data_version');
    totalChanges ??= db.query('SELECT total_changes()');
    const version = dataVersion.values()[0]![0] as number;
    const changes = totalChanges.values()[0]![0] as number;
    if (version !== seenVersion || changes !== seenChanges) {
      seenVersion = version;
      seenChanges = changes;
      marker++;
    }
    return marker;
  };
}

/**
 * PostgreSQL has no cheap "did another connection commit" counter, and the other
 * connections are other appliances. So the marker also moves every second: a change made
 * through another appliance (a key revoked there) is seen here within a second, and one
 * made through this connection at once (the rows it changed, counted by the connection).
 */
export const CROSS_NODE_STALENESS_MS = 1000;

function postgresChangeMarker(db: { totalChanges(): number }, now: () => number = () => performance.now()): ChangeMarker {
  let seenSlice = -1;
  let seenChanges = -1;
  let marker = 0;
  return () => {
    const slice = Math.floor(now() / CROSS_NODE_STALENESS_MS);
    const changes = db.totalChanges();
    if (slice !== seenSlice || changes !== seenChanges) {
      seenSlice = slice;
      seenChanges = changes;
      marker++;
    }
    return marker;
  };
}
