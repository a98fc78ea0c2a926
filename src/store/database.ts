import { Database } from 'bun:sqlite';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from '../log';
import { migrate } from './migrations';
import { sqliteConnection } from './sql/connection';

export interface OpenDatabaseOptions {
  path: string;
  busyTimeoutMs: number;
  log?: Logger;
}

/**
 * Opens (creating folder and file) and migrates the database.
 * busy_timeout is set first so that even switching to WAL waits for another process;
 * synchronous=FULL because a 200 promises the call survives a power cut.
 */
export function openDatabase({ path, busyTimeoutMs, log }: OpenDatabaseOptions): Database {
  if (path !== ':memory:') {
    mkdirSync(dirname(path), { recursive: true });
    // Created 0600 by us, not 0644 by SQLite under the usual umask: it holds the credential
    // hashes and the panel's sessions, and must not be readable by other local users even
    // outside systemd (issue 10 §10). SQLite gives its -wal and -shm files the database
    // file's mode. 'a' never truncates an existing file; an existing file keeps its mode.
    closeSync(openSync(path, 'a', 0o600));
  }
  const db = new Database(path, { create: true, strict: true });
  db.run(`PRAGMA busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
  db.run('PRAGMA journal_mode = WAL');
  db.run('PRAGMA synchronous = FULL');
  db.run('PRAGMA foreign_keys = ON');
  migrate(sqliteConnection(db), log);
  return db;
}
