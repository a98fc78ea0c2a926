import { Database } from 'bun:sqlite';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from '../../../log';
import { migrateSqlite } from '../../migrations';
import { sqliteConnection } from '../connection';
import type { CommitObserver, SqlDatabase } from '../database';
import { createGroupCommitter } from './group-commit';

export interface OpenDatabaseOptions {
  path: string;
  busyTimeoutMs: number;
  log?: Logger;
  onCommit?: CommitObserver;
}

/**
 * Opens (creating folder and file) and migrates the database file.
 * busy_timeout is set first so that even switching to WAL waits for another process;
 * synchronous=FULL because a 200 promises the call survives a power cut.
 */
export function openDatabase({ path, busyTimeoutMs, log }: OpenDatabaseOptions): Database {
  mkdirSync(dirname(path), { recursive: true });
  // Created 0600 by us, not 0644 by SQLite under the usual umask: it holds the credential
  // hashes and the panel's sessions, and must not be readable by other local users even
  // outside systemd (issue 10 §10). SQLite gives its -wal and -shm files the database
  // file's mode. 'a' never truncates an existing file; an existing file keeps its mode.
  closeSync(openSync(path, 'a', 0o600));
  const db = new Database(path, { create: true, strict: true });
  db.run(`PRAGMA busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
  db.run('PRAGMA journal_mode = WAL');
  db.run('PRAGMA synchronous = FULL');
  db.run('PRAGMA foreign_keys = ON');
  // The group commit runs each unit under a SAVEPOINT, so SQLite copies every page a unit
  // first touches into a statement journal: a temporary file by default, ~22 pwrite(2)s of
  // 4 KiB per accepted request (BENCHMARKS.md "The statement journal in memory"). In
  // memory it is a copy, and it never spills (SQLite's pager: subjInMemory).
  db.run('PRAGMA temp_store = MEMORY');
  migrateSqlite(db, log);
  return db;
}

/**
 * The SQLite store: one connection writes, through the group commit (group-commit.ts);
 * a second one reads (as PocketBase splits them), so a read never waits for a batch being
 * written and always sees what was committed. Under WAL the reader is never blocked by the
 * writer.
 */
export function openSqlite(options: OpenDatabaseOptions): SqlDatabase {
  const raw = openDatabase(options);
  // From here the group commit waits for another process's lock itself, on a timer
  // (write-lock.ts): SQLite's busy handler would sleep on the event loop's thread.
  raw.run('PRAGMA busy_timeout = 0');
  let lookedUpWritten = false;
  let lookedUpCommits = 0;
  const writer = sqliteConnection(raw, () => {
    lookedUpWritten = true;
  });
  const readRaw = new Database(options.path, { strict: true, readonly: true });
  readRaw.run(`PRAGMA busy_timeout = ${Math.trunc(options.busyTimeoutMs)}`);
  const reader = sqliteConnection(readRaw);
  const writes = createGroupCommitter(raw, writer, {
    lockWaitMs: options.busyTimeoutMs,
    onCommit(units, seconds) {
      // Counted after COMMIT and before the batch's units resolve: the request after a key's
      // revocation sees the marker moved, and no request in between read the old row as new.
      if (lookedUpWritten) {
        lookedUpWritten = false;
        lookedUpCommits++;
      }
      options.onCommit?.(units, seconds);
    },
  });
  return {
    dialect: 'sqlite',
    reader,
    transaction: (work, unit) => (unit?.savepoint === false ? writes.unguarded(work) : writes.run(work)),
    background: (work, onError) => writes.runDetached(work, onError),
    flush: () => writes.flush(),
    changeMarker: changeMarkerOf(raw, () => lookedUpCommits),
    stats: () => writes.stats(),
    async close() {
      await writes.close();
      readRaw.close();
      raw.close();
    },
  };
}

/** How long a change committed by another process (the CLI revoking a key) may go unseen by the marker. */
export const OTHER_PROCESS_STALENESS_MS = 100;

/**
 * A number that moves when a table the intake's lookup cache keeps may have changed
 * (sql/looked-up.ts): at once for a batch of our own writer that wrote one (`lookedUpCommits`),
 * within OTHER_PROCESS_STALENESS_MS for any commit by another connection (the CLI revoking a
 * key in another process; docs/cli.md "Accounts and keys"). Built for the lookup cache, which
 * asks per request.
 *
 * Another connection's commits come from SQLite's `PRAGMA data_version` on our WRITING
 * connection, which moves for every other connection's commit and never for its own
 * (sqlite.org/pragma.html#pragma_data_version). Read on the reading connection it moved for
 * every batch of ours as well, and under load the cache was read again after every group
 * commit (BENCHMARKS.md "The lookup cache across our own commits"). A read costs ~10 µs
 * under load (a read transaction on a log that grows all the time), so it is made at most
 * once per OTHER_PROCESS_STALENESS_MS.
 */
function changeMarkerOf(writer: Database, lookedUpCommits: () => number): () => Promise<number> {
  const dataVersion = writer.query('PRAGMA data_version');
  let seenOwn = -1;
  let seenOther: number | null = null;
  let readAt = Number.NEGATIVE_INFINITY;
  let value = 0;
  return () => {
    const now = performance.now();
    if (now - readAt >= OTHER_PROCESS_STALENESS_MS) {
      readAt = now;
      const other = dataVersion.values()[0]![0] as number;
      if (other !== seenOther) {
        seenOther = other;
        value++;
      }
    }
    const own = lookedUpCommits();
    if (own !== seenOwn) {
      seenOwn = own;
      value++;
    }
    return Promise.resolve(value);
  };
}
