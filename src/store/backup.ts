import { Database } from 'bun:sqlite';
import { chmodSync, chownSync, closeSync, copyFileSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { MIGRATIONS } from './migration-steps';
import { createSecretBox } from './secret-box';

/** The files of a backup folder: always these names, whatever store.path is called. */
export const BACKUP_DATABASE = 'voice-alert.db';
export const BACKUP_KEY = 'secret.key';

/** A backup or restore that cannot be done; the message says why and what to do. */
export class BackupError extends Error {
  override readonly name = 'BackupError';
}

export interface CopySummary {
  /** PRAGMA user_version of the copy. */
  schemaVersion: number;
  bytes: number;
  calls: number;
  accounts: number;
}

export interface BackupOptions {
  /** store.path of the live database (never created or migrated here). */
  dbPath: string;
  keyFile: string;
  /** A folder that does not exist yet, or is empty. */
  dest: string;
  busyTimeoutMs: number;
}

/**
 * A consistent online copy of a live database and its key. `VACUUM INTO` from a separate
 * read-only connection reads one snapshot (a WAL read transaction), so writers carry on
 * and every transaction committed before the snapshot is in the copy, the WAL's included;
 * copying the file alone misses the WAL, and `sqlite3 .backup` restarts whenever a
 * writer commits, so under load it never finished (issue 10 item 8). The copy is written
 * under a temporary name, fsynced, checked, then renamed, so a folder holding
 * voice-alert.db holds a whole one.
 */
export function writeBackup(o: BackupOptions): CopySummary {
  if (!existsSync(o.dbPath)) throw new BackupError(`no database at ${o.dbPath} (store.path): nothing to back up`);
  if (!existsSync(o.keyFile)) throw new BackupError(`no ${BACKUP_KEY} at ${o.keyFile}: a backup without it cannot decrypt API secrets`);
  const key = readKey(o.keyFile);
  prepareEmptyFolder(o.dest, 'backup destination');
  const partial = join(o.dest, `${BACKUP_DATABASE}.partial`);
  const live = new Database(o.dbPath, { readonly: true });
  try {
    live.run(`PRAGMA busy_timeout = ${Math.trunc(o.busyTimeoutMs)}`);
    live.query('VACUUM INTO $into').run({ into: partial });
  } catch (e) {
    rmSync(partial, { force: true });
    throw new BackupError(`backup of ${o.dbPath} failed: ${(e as Error).message}`);
  } finally {
    live.close();
    keepOwner(o.dbPath);
  }
  chmodSync(partial, 0o600);
  fsyncFile(partial);
  let summary: CopySummary;
  try {
    summary = checkCopy(partial, key);
  } catch (e) {
    rmSync(partial, { force: true });
    throw e;
  }
  renameSync(partial, join(o.dest, BACKUP_DATABASE));
  writeFileSync(join(o.dest, BACKUP_KEY), key, { mode: 0o600, flag: 'wx' });
  fsyncFile(join(o.dest, BACKUP_KEY));
  fsyncFile(o.dest);
  return summary;
}

export interface RestoreOptions {
  /** A folder written by writeBackup. */
  src: string;
  /** store.path to restore to; its folder must not exist or be empty. */
  dbPath: string;
  keyFile: string;
}

/**
 * Puts a backup back into an EMPTY data folder (never over a live or old database: that
 * is a decision for a person, who empties the folder first). The copy is checked before
 * anything is written: integrity, a schema this program knows (older ones are migrated
 * on the next start), and that secret.key opens the stored API secrets. Files are 0600;
 * run as root into a folder that exists, they take the folder's owner (the service user).
 */
export function restoreBackup(o: RestoreOptions): CopySummary {
  const srcDb = join(o.src, BACKUP_DATABASE);
  const srcKey = join(o.src, BACKUP_KEY);
  if (!existsSync(srcDb)) throw new BackupError(`${o.src} holds no ${BACKUP_DATABASE}: not a voice-alert backup`);
  if (!existsSync(srcKey)) throw new BackupError(`${o.src} holds no ${BACKUP_KEY}: not a complete voice-alert backup`);
  const folder = dirname(resolve(o.dbPath));
  if (resolve(o.keyFile) !== join(folder, BACKUP_KEY)) throw new BackupError(`${BACKUP_KEY} must sit beside the database (${folder})`);
  assertEmpty(folder, 'data folder');
  const key = readKey(srcKey);
  const summary = checkCopy(srcDb, key);
  prepareEmptyFolder(folder, 'data folder');
  const partial = `${o.dbPath}.restoring`;
  copyFileSync(srcDb, partial);
  chmodSync(partial, 0o600);
  fsyncFile(partial);
  renameSync(partial, o.dbPath);
  writeFileSync(o.keyFile, key, { mode: 0o600, flag: 'wx' });
  fsyncFile(o.keyFile);
  fsyncFile(folder);
  if (process.getuid?.() === 0) {
    const owner = statSync(folder);
    for (const f of [o.dbPath, o.keyFile]) chownSync(f, owner.uid, owner.gid);
  }
  return summary;
}

/**
 * With the service stopped, even a read-only connection creates the -wal and -shm files,
 * owned by whoever ran the backup; as root that would lock the service user out of its
 * own database. They are handed to the database's owner.
 */
function keepOwner(dbPath: string): void {
  if (process.getuid?.() !== 0) return;
  const owner = statSync(dbPath);
  for (const f of [`${dbPath}-wal`, `${dbPath}-shm`]) {
    if (existsSync(f) && statSync(f).uid !== owner.uid) chownSync(f, owner.uid, owner.gid);
  }
}

/** Integrity, schema version and key of a copy, read-only. */
function checkCopy(path: string, key: Buffer): CopySummary {
  let db: Database;
  try {
    db = new Database(path, { readonly: true });
  } catch (e) {
    throw new BackupError(`${path} cannot be opened as a database: ${(e as Error).message}`);
  }
  try {
    const rows = db.query('PRAGMA integrity_check').all() as { integrity_check: string }[];
    if (rows.length !== 1 || rows[0]!.integrity_check !== 'ok') {
      throw new BackupError(`${path} is damaged (integrity_check: ${rows.map((r) => r.integrity_check).slice(0, 3).join('; ')})`);
    }
    const schemaVersion = (db.query('PRAGMA user_version').get() as { user_version: number }).user_version;
    const latest = MIGRATIONS[MIGRATIONS.length - 1]!.version;
    if (schemaVersion < 1) throw new BackupError(`${path} is not a voice-alert database (schema version 0)`);
    if (schemaVersion > latest) {
      throw new BackupError(`${path} has schema version ${schemaVersion}, newer than this program understands (${latest}); restore with a newer voice-alert`);
    }
    const sealed = db.query('SELECT secret_enc FROM credentials LIMIT 1').get() as { secret_enc: Uint8Array } | null;
    if (sealed) {
      try {
        createSecretBox(key).open(sealed.secret_enc);
      } catch {
        throw new BackupError(`${BACKUP_KEY} does not belong to this database: its API secrets cannot be decrypted`);
      }
    }
    const count = (table: string) => (db.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return { schemaVersion, bytes: statSync(path).size, calls: count('calls'), accounts: count('accounts') };
  } catch (e) {
    if (e instanceof BackupError) throw e;
    throw new BackupError(`${path} cannot be read as a voice-alert database: ${(e as Error).message}`);
  } finally {
    db.close();
  }
}

function readKey(path: string): Buffer {
  const key = readFileSync(path);
  if (key.length !== 32) throw new BackupError(`${path} is damaged (expected 32 bytes, found ${key.length})`);
  return key;
}

function assertEmpty(folder: string, what: string): void {
  if (!existsSync(folder)) return;
  if (!statSync(folder).isDirectory()) throw new BackupError(`${what} ${folder} is not a folder`);
  const entries = readdirSync(folder);
  if (entries.length > 0) throw new BackupError(`${what} ${folder} is not empty (${entries.slice(0, 3).join(', ')}${entries.length > 3 ? ', …' : ''}); refusing to overwrite`);
}

/** Refuses a non-empty folder, creates a missing one (0700: it will hold secret.key). */
function prepareEmptyFolder(folder: string, what: string): void {
  assertEmpty(folder, what);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
}

/** fsync a file or folder: the copy and its name survive a power cut once we report success. */
function fsyncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
