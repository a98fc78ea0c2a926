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
  const writer = sqliteConnection(raw);
  const readRaw = new Database(options.path, { strict: true, readonly: true });
  readRaw.run(`PRAGMA busy_timeout = ${Math.trunc(options.busyTimeoutMs)}`);
  const reader = sqliteConnection(readRaw);
  const writes = createGroupCommitter(raw, writer, options.onCommit);
  return {
    dialect: 'sqlite',
    reader,
    transaction: (work) => writes.run(work),
    background: (work, onError) => writes.runDetached(work, onError),
    flush: () => writes.flush(),
    changeMarker: changeMarkerOf(readRaw, writes.committed),
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
 * A number that moves whenever another connection committed since the previous call:
 * SQLite's `PRAGMA data_version`, read on the reading connection, so it moves for our own
 * writer's commits and for any other process's (the CLI revoking a key). Two equal
 * markers mean nothing was committed in between (by another process: up to
 * OTHER_PROCESS_STALENESS_MS before the call). Built for the intake's lookup cache,
 * which asks per request.
 *
 * Read per request it cost ~10 µs (each read begins a read transaction on a log that grows
 * all the time under load: BENCHMARKS.md "The lookups' change marker read per batch; SIP's
 * parser decoded once"), so it is read again only when our writer committed since the last
 * read (`commits`, the group commit's batches: our own changes are seen by the next request)
 * or OTHER_PROCESS_STALENESS_MS after it (another process's changes, within that; README
 * "Accounts and keys"). Under load one read serves a batch of requests.
 */
function changeMarkerOf(db: Database, commits: () => number): () => Promise<number> {
  const dataVersion = db.query('PRAGMA data_version');
  let seenCommits = -1;
  let readAt = 0;
  let value = 0;
  return () => {
    const now = performance.now();
    const c = commits();
    if (c !== seenCommits || now - readAt >= OTHER_PROCESS_STALENESS_MS) {
      seenCommits = c;
      readAt = now;
      value = dataVersion.values()[0]![0] as number;
    }
    return Promise.resolve(value);
  };
}
