import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Clock } from '../clock';
import type { Logger } from '../log';
import { assertKeyOpensDatabase } from './key-check';
import { createHistoryWriter } from './history-writer';
import type { HistoryEntry } from './history';
import { createQueueAtOnce, type QueueAtOnceFn } from './queue-at-once';
import { createSecretBox, loadOrCreateKeyFile } from './secret-box';
import type { SqlConnection } from './sql/connection';
import type { CommitObserver, SqlDatabase, TransactionStats, UnitOptions } from './sql/database';
import { openSqlite } from './sql/sqlite/database';
import { bindTables, TABLE_NAMES, type Tables, type Tx } from './tables';

export type { UnitOptions } from './sql/database';
export type { QueueAtOnce, QueueAtOnceFn } from './queue-at-once';
export type { AccountScope } from './account-scope';
export type { Tables, Tx } from './tables';
export type { AccountsStore } from './accounts';
export type { Account } from './accounts';
export type { AlertRecord, NewAlert, AlertChange, AlertMatch, AlertPage } from './alerts';
export type { Policy, PolicyStep, NewPolicy } from './policies';
export type { MaintenanceWindow, NewMaintenanceWindow } from './maintenance';
export type { Heartbeat, HeartbeatState, NewHeartbeat } from './heartbeats';
export type { SelfTestRecord, NewSelfTest } from './self-tests';
export { newLease, type Lease } from './lease';
export type { ScheduleRecord, OverrideRecord, NewSchedule, StoredLayer, StoredParticipant } from './schedules';
export type { DeskSetup, VoiceDeskStore } from './voice-desk';
export type { Fallback, FallbacksStore } from './fallbacks';
export { nameKey, type Person, type PersonFields, type PersonLanguage, type PersonPhone, type PhoneCheck, type PeopleStore } from './people';
export type { ImportedObject, ImportSourcesStore } from './import-sources';
export type { ImportRun, ImportRunsStore } from './import-runs';
export type { Escalation, EscalationPlan } from './escalations';
export type { AlertText, AlertTextType, TextNotice, TextNoticesStore } from './text-notices';
export type { HandoffRecord, HandoffState, HandoffStep, HandoffsStore, NewHandoff, OnCallParty } from './handoffs';
export { ordinalOf } from './escalations';
export { claimUse, describeUsers, whoUses, type UsedBy, type UsedKind } from './usage-of';
export type { Credential, IssuedCredential } from './credentials';
export type { CallRecord, CallSource } from './call-record';
export type { NewCall, CallChange, ClaimedCall, Pacing } from './calls';
export type { CallEvent } from './call-edges';
export type { CopySummary } from './backup';
export type { CopiedTable } from './copy-to-postgres';
export type { HistoryEntry, HistoryRow } from './history';
export { pruneHistory } from './history-retention';
export type { CallbackTarget, OutboxEvent, OutboxState, AttemptRecord, NewOutboxEvent } from './outbox';
export type { PanelUser, PanelRole } from './panel-users';
export type { RecentFailure, StateCounts } from './ops-counts';
export type { PanelSession } from './panel-sessions';
export type { AlertFilter, CallFilter, CallStateCounts, HistoryFilter, Page } from './panel-queries';
export { DatabaseTooNewError } from './migrations';
export { SecretKeyMismatchError } from './key-check';
export { DatabaseUnavailableError } from './sql/unavailable';

/**
 * Everything persistent: the SQLite file (default) or PostgreSQL (store.url), through the
 * same table groups (tables.ts). Reads outside a transaction go through the table groups
 * here (a connection that never waits for a commit); every write is a unit of work in
 * `transaction`, whose `tx` has the same table groups on that transaction. So every SQL
 * statement lives in src/store, and nothing waits for the database on the event loop.
 */
export interface Store extends Tables {
  readonly dialect: 'sqlite' | 'postgres';
  /**
   * Runs one unit of work (an accepted request, a claim, a call's state change) in one
   * transaction; resolves with its result once committed. `work` MUST touch only `tx`: it
   * may run again as a whole (sql/database.ts), so side effects come after it resolves.
   * Rejects with DatabaseUnavailableError when the database was away for `store.timeout_ms`.
   * Every unit a caller waits for is written here, but for `queueAtOnce` below (PostgreSQL: a
   * plain request's writes as one statement, made of the same table groups' texts);
   * `background` and `recordHistory` are bookkeeping nobody waits for.
   */
  transaction<T>(work: (tx: Tx) => Promise<T>, options?: UnitOptions): Promise<T>;
  /**
   * PostgreSQL only: a plain request's writes as one statement, its own transaction
   * (queue-at-once.ts, made of the table groups' own texts). Null when the charge found no
   * room (run the unit, which decides why).
   */
  queueAtOnce?: QueueAtOnceFn;
  /** A single-statement bookkeeping write nobody waits for; a failure goes to `onError`. */
  background(work: (tx: Tx) => Promise<void>, onError: (e: unknown) => void): void;
  /** An API history row, written in the background with the others of its batch in one insert (history-writer.ts). */
  recordHistory(entry: HistoryEntry, onError: (e: unknown) => void): void;
  /** Resolves when everything queued so far has committed. */
  flush(): Promise<void>;
  /**
   * Moves whenever the credentials, accounts or maintenance windows may have changed since
   * the previous call: at once for this appliance's own commits, within 0.1 s for another
   * process's on SQLite, within a second for another appliance's on PostgreSQL (docs/cli.md
   * "Accounts and keys"). Cheap enough to call per request.
   */
  changeMarker(): Promise<number>;
  /** True while the database is there and answers a query (health check). */
  ping(): Promise<boolean>;
  stats(): TransactionStats;
  close(): Promise<void>;
}

export interface CreateStoreOptions {
  /** The SQLite file; with `url` set, only its folder is used (for secret.key). */
  path: string;
  /** store.url: a postgres:// URL puts the whole store on PostgreSQL instead of the file. */
  url?: string;
  /** SQLite: how long to wait for another process's lock. */
  busyTimeoutMs: number;
  /** PostgreSQL: how long anything waits for the database in all (store.timeout_ms). */
  timeoutMs?: number;
  /** PostgreSQL: connections in the pool (store.pool_size). */
  poolSize?: number;
  clock: Clock;
  log?: Logger;
  /** Told of every commit (the appliance's metrics). */
  onCommit?: CommitObserver;
  /** Defaults to `secret.key` beside the database. */
  keyFile?: string;
}

export function keyFileFor(dbPath: string): string {
  return join(dirname(dbPath), 'secret.key');
}

/**
 * Opens and migrates the store's database: the SQLite file, or PostgreSQL when `url` is set.
 * The PostgreSQL side (Bun.SQL, the pool) is loaded only then: a CLI command on SQLite did
 * not need it at its start (docs/development.md "The suite's length").
 */
export async function openSqlDatabase(options: Pick<CreateStoreOptions, 'path' | 'url' | 'busyTimeoutMs' | 'timeoutMs' | 'poolSize' | 'log' | 'onCommit'>): Promise<SqlDatabase> {
  if (!options.url) return openSqlite(options);
  const { openMigratedPostgres } = await import('./sql/postgres/database');
  return openMigratedPostgres({ url: options.url, timeoutMs: options.timeoutMs ?? 5000, poolSize: options.poolSize ?? 10, log: options.log, onCommit: options.onCommit });
}

export async function createStore(options: CreateStoreOptions): Promise<Store> {
  const db = await openSqlDatabase(options);
  const keyFile = options.keyFile ?? keyFileFor(options.path);
  const deps = { box: createSecretBox(loadOrCreateKeyFile(keyFile)), clock: options.clock };
  try {
    await assertKeyOpensDatabase(db.reader, deps.box, keyFile);
  } catch (e) {
    await db.close();
    throw e;
  }
  // One view per transaction's connection: SQLite's writer is always the same one, so its
  // view is made once; each PostgreSQL transaction has a connection of its own.
  const views = new WeakMap<SqlConnection, Tx>();
  const viewOf = (conn: SqlConnection): Tx => {
    let tx = views.get(conn);
    if (!tx) {
      tx = bindTables(conn, deps);
      views.set(conn, tx);
    }
    return tx;
  };
  const reads = bindTables(db.reader, deps);
  const background: Store['background'] = (work, onError) => db.background((conn) => work(viewOf(conn)), onError);
  const store = {
    dialect: db.dialect,
    transaction: (work, unit) => db.transaction((conn) => work(viewOf(conn)), unit),
    queueAtOnce: createQueueAtOnce(db) ?? undefined,
    background,
    recordHistory: createHistoryWriter(background),
    flush: () => db.flush(),
    changeMarker: () => db.changeMarker(),
    async ping() {
      try {
        if (!options.url && !existsSync(options.path)) return false;
        await db.reader.query('SELECT 1 FROM accounts LIMIT 1').get();
        return true;
      } catch {
        return false;
      }
    },
    stats: () => db.stats(),
    close: () => db.close(),
  } as Store;
  // Reads outside a transaction: the reading connection's table groups.
  for (const name of TABLE_NAMES) Object.defineProperty(store, name, { enumerable: true, get: () => reads[name] });
  return store;
}

/** The store's options as the configuration gives them (config.store). */
export function storeOptionsFrom(config: {
  store: { path: string; url: string; busy_timeout_ms: number; timeout_ms: number; pool_size: number };
}): Pick<CreateStoreOptions, 'path' | 'url' | 'busyTimeoutMs' | 'timeoutMs' | 'poolSize'> {
  const s = config.store;
  return { path: s.path, url: s.url || undefined, busyTimeoutMs: s.busy_timeout_ms, timeoutMs: s.timeout_ms, poolSize: s.pool_size };
}
