import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Clock } from '../clock';
import type { Logger } from '../log';
import { createAccountsStore, type AccountsStore } from './accounts';
import { createAlertsStore, type AlertsStore } from './alerts';
import { createEscalationsStore, type EscalationsStore } from './escalations';
import { createPoliciesStore, type PoliciesStore } from './policies';
import { createCallsStore, type CallsStore } from './calls';
import { createChangeMarker } from './change-marker';
import { createCredentialsStore, type CredentialsStore } from './credentials';
import { openDatabase } from './database';
import { assertKeyOpensDatabase } from './key-check';
import { createKeyLock } from './key-lock';
import { createLeadership } from './leadership';
import { migrate } from './migrations';
import { sqliteConnection, type SqlConnection } from './sql/connection';
import { postgresConnection } from './sql/postgres/connection';
import { createGroupCommitter, type GroupCommitter } from './group-commit';
import { createHealthStore, type HealthStore } from './health';
import { createHistoryStore, type HistoryStore } from './history';
import { createIdempotencyStore, type IdempotencyStore } from './idempotency';
import { createOutboxStore, type OutboxStore } from './outbox';
import { createOpsCountsStore, type OpsCountsStore } from './ops-counts';
import { createLoginFailuresStore, type LoginFailuresStore } from './login-failures';
import { createPanelQueries, type PanelQueries } from './panel-queries';
import { createPanelSessionsStore, type PanelSessionsStore } from './panel-sessions';
import { createPanelUsersStore, type PanelUsersStore } from './panel-users';
import { createSecretBox, loadOrCreateKeyFile } from './secret-box';
import { createUsageStore, type UsageStore } from './usage';

export type { Account } from './accounts';
export type { AlertRecord, NewAlert, AlertChange } from './alerts';
export type { Policy, PolicyStep, NewPolicy } from './policies';
export type { Escalation, EscalationPlan } from './escalations';
export { ordinalOf } from './escalations';
export type { Credential, IssuedCredential } from './credentials';
export type { CallRecord, CallSource } from './call-record';
export type { NewCall, CallChange, ClaimedCall, Pacing } from './calls';
export type { HistoryEntry, HistoryRow } from './history';
export { pruneHistory } from './history-retention';
export type { CallbackTarget, OutboxEvent, OutboxState, AttemptRecord, NewOutboxEvent } from './outbox';
export type { PanelUser, PanelRole } from './panel-users';
export type { RecentFailure, StateCounts } from './ops-counts';
export type { PanelSession } from './panel-sessions';
export type { AlertFilter, CallFilter, CallStateCounts, HistoryFilter, Page } from './panel-queries';
export { DatabaseTooNewError } from './migrations';
export { SecretKeyMismatchError } from './key-check';

/**
 * Everything persistent, over one connection: the SQLite file (default) or PostgreSQL
 * (store.url), through the same table groups (sql/connection.ts). The connection itself stays inside
 * this folder: callers read and write through the table groups below, writes inside
 * `writes.run`, so every SQL statement lives in src/store.
 */
export interface Store {
  accounts: AccountsStore;
  credentials: CredentialsStore;
  usage: UsageStore;
  calls: CallsStore;
  alerts: AlertsStore;
  policies: PoliciesStore;
  escalations: EscalationsStore;
  history: HistoryStore;
  /** GET /healthz: a write probe and the queue's depth. */
  health: HealthStore;
  idempotency: IdempotencyStore;
  /** Outcome callbacks: each account's target and the outbox of events to deliver. */
  outbox: OutboxStore;
  /** Web panel: who may log in, their sessions, failed logins, read-only searches. */
  panelUsers: PanelUsersStore;
  panelSessions: PanelSessionsStore;
  loginFailures: LoginFailuresStore;
  panelQueries: PanelQueries;
  /** /metrics and the panel's overview: grouped counts (ops-counts.ts). */
  opsCounts: OpsCountsStore;
  /** Batches durable writes; see group-commit.ts. */
  writes: GroupCommitter;
  /**
   * Moves whenever the database may have changed since the previous call (a commit by
   * another connection, any row changed through this one); see change-marker.ts. Cheap
   * enough to call per request.
   */
  changeMarker(): number;
  /**
   * True while this appliance is the one that sends callbacks and advances escalations
   * (several appliances on one PostgreSQL; always true on SQLite). See leadership.ts.
   */
  leads(): boolean;
  /** Serializes the rest of this write transaction with others on the same key, across appliances (key-lock.ts). */
  serializeOn(key: string): void;
  /** True while the database file is there and answers a query (health check). */
  ping(): boolean;
  close(): Promise<void>;
}

export interface CreateStoreOptions {
  /** The SQLite file; with `url` set, only its folder is used (for secret.key). */
  path: string;
  /** store.url: a postgres:// URL puts the whole store on PostgreSQL instead of the file. */
  url?: string;
  /** SQLite: how long to wait for another process's lock. PostgreSQL: how long a statement may take. */
  busyTimeoutMs: number;
  clock: Clock;
  log?: Logger;
  /** Defaults to `secret.key` beside the database. */
  keyFile?: string;
}

export function keyFileFor(dbPath: string): string {
  return join(dirname(dbPath), 'secret.key');
}

/** Opens and migrates the store's connection: the SQLite file, or PostgreSQL when `url` is set. */
export function openConnection(options: Pick<CreateStoreOptions, 'path' | 'url' | 'busyTimeoutMs' | 'log'>): SqlConnection {
  if (!options.url) return sqliteConnection(openDatabase(options));
  const db = postgresConnection({ url: options.url, statementTimeoutMs: Math.max(options.busyTimeoutMs, 1000) });
  try {
    migrate(db, options.log);
  } catch (e) {
    db.close();
    throw e;
  }
  return db;
}

export function createStore(options: CreateStoreOptions): Store {
  const db = openConnection(options);
  const keyFile = options.keyFile ?? keyFileFor(options.path);
  const box = createSecretBox(loadOrCreateKeyFile(keyFile));
  try {
    assertKeyOpensDatabase(db, box, keyFile);
  } catch (e) {
    db.close();
    throw e;
  }
  const writes = createGroupCommitter(db);
  return {
    accounts: createAccountsStore(db, options.clock),
    credentials: createCredentialsStore(db, box, options.clock),
    usage: createUsageStore(db),
    calls: createCallsStore(db),
    alerts: createAlertsStore(db),
    policies: createPoliciesStore(db),
    escalations: createEscalationsStore(db),
    history: createHistoryStore(db),
    health: createHealthStore(db),
    idempotency: createIdempotencyStore(db),
    outbox: createOutboxStore(db, box),
    panelUsers: createPanelUsersStore(db, options.clock),
    panelSessions: createPanelSessionsStore(db),
    loginFailures: createLoginFailuresStore(db),
    panelQueries: createPanelQueries(db),
    opsCounts: createOpsCountsStore(db),
    writes,
    changeMarker: createChangeMarker(db),
    leads: createLeadership(db),
    serializeOn: createKeyLock(db),
    ping() {
      try {
        if (!options.url && options.path !== ':memory:' && !existsSync(options.path)) return false;
        db.query('SELECT 1 FROM accounts LIMIT 1').get();
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await writes.close();
      db.close();
    },
  };
}
