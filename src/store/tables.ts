import type { Clock } from '../clock';
import { createAccountsStore, type AccountsStore } from './accounts';
import { createAlertsStore, type AlertsStore } from './alerts';
import { createCallsStore, type CallsStore } from './calls';
import { createCredentialsStore, type CredentialsStore } from './credentials';
import { createEscalationsStore, type EscalationsStore } from './escalations';
import { createHealthStore, type HealthStore } from './health';
import { createHistoryStore, type HistoryStore } from './history';
import { createIdempotencyStore, type IdempotencyStore } from './idempotency';
import { createKeyLock } from './key-lock';
import { createLoginFailuresStore, type LoginFailuresStore } from './login-failures';
import { createOpsCountsStore, type OpsCountsStore } from './ops-counts';
import { createOutboxStore, type OutboxStore } from './outbox';
import { createPanelQueries, type PanelQueries } from './panel-queries';
import { createPanelSessionsStore, type PanelSessionsStore } from './panel-sessions';
import { createPanelUsersStore, type PanelUsersStore } from './panel-users';
import { createPoliciesStore, type PoliciesStore } from './policies';
import type { SecretBox } from './secret-box';
import { createSignedRequestsStore, type SignedRequestsStore } from './signed-requests';
import type { SqlConnection } from './sql/connection';
import { createUsageStore, type UsageStore } from './usage';

/** The table groups, each over one connection: the store's reader, or one transaction. */
export interface Tables {
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
  /** Signatures already accepted (replay memory shared by every appliance). */
  signedRequests: SignedRequestsStore;
  /** Outcome callbacks: each account's target and the outbox of events to deliver. */
  outbox: OutboxStore;
  /** Web panel: who may log in, their sessions, failed logins, read-only searches. */
  panelUsers: PanelUsersStore;
  panelSessions: PanelSessionsStore;
  loginFailures: LoginFailuresStore;
  panelQueries: PanelQueries;
  /** /metrics and the panel's overview: grouped counts (ops-counts.ts). */
  opsCounts: OpsCountsStore;
}

/** One unit of work's view of the store: the table groups on its transaction. */
export interface Tx extends Tables {
  /** Serializes the rest of this transaction with others on the same key, across appliances (key-lock.ts). */
  serializeOn(key: string): Promise<void>;
}

export interface TableDeps {
  box: SecretBox;
  clock: Clock;
}

/**
 * The table groups over `db`, each made on first use: a transaction on PostgreSQL gets a
 * view of its own and touches only a few groups.
 */
export function bindTables(db: SqlConnection, deps: TableDeps): Tx {
  const made = new Map<string, unknown>();
  const once = <T>(name: string, make: () => T): T => {
    let t = made.get(name) as T | undefined;
    if (t === undefined) {
      t = make();
      made.set(name, t);
    }
    return t;
  };
  return {
    get accounts() {
      return once('accounts', () => createAccountsStore(db, deps.clock));
    },
    get credentials() {
      return once('credentials', () => createCredentialsStore(db, deps.box, deps.clock));
    },
    get usage() {
      return once('usage', () => createUsageStore(db));
    },
    get calls() {
      return once('calls', () => createCallsStore(db));
    },
    get alerts() {
      return once('alerts', () => createAlertsStore(db));
    },
    get policies() {
      return once('policies', () => createPoliciesStore(db));
    },
    get escalations() {
      return once('escalations', () => createEscalationsStore(db));
    },
    get history() {
      return once('history', () => createHistoryStore(db));
    },
    get health() {
      return once('health', () => createHealthStore(db));
    },
    get idempotency() {
      return once('idempotency', () => createIdempotencyStore(db));
    },
    get signedRequests() {
      return once('signedRequests', () => createSignedRequestsStore(db));
    },
    get outbox() {
      return once('outbox', () => createOutboxStore(db, deps.box));
    },
    get panelUsers() {
      return once('panelUsers', () => createPanelUsersStore(db, deps.clock));
    },
    get panelSessions() {
      return once('panelSessions', () => createPanelSessionsStore(db));
    },
    get loginFailures() {
      return once('loginFailures', () => createLoginFailuresStore(db));
    },
    get panelQueries() {
      return once('panelQueries', () => createPanelQueries(db));
    },
    get opsCounts() {
      return once('opsCounts', () => createOpsCountsStore(db));
    },
    serializeOn: createKeyLock(db),
  };
}
