import type { Clock } from '../clock';
import { createAccountsStore, type AccountsStore } from './accounts';
import { createAlertsStore, type AlertsStore } from './alerts';
import { createCallsStore, type CallsStore } from './calls';
import { createCredentialsStore, type CredentialsStore } from './credentials';
import { createEscalationsStore, type EscalationsStore } from './escalations';
import { createHealthStore, type HealthStore } from './health';
import { createHeartbeatsStore, type HeartbeatsStore } from './heartbeats';
import { createHistoryStore, type HistoryStore } from './history';
import { createIdempotencyStore, type IdempotencyStore } from './idempotency';
import { createKeyLock } from './key-lock';
import { createLoginFailuresStore, type LoginFailuresStore } from './login-failures';
import { createMaintenanceStore, type MaintenanceStore } from './maintenance';
import { createOpsCountsStore, type OpsCountsStore } from './ops-counts';
import { createOutboxStore, type OutboxStore } from './outbox';
import { createPanelQueries, type PanelQueries } from './panel-queries';
import { createPanelSessionsStore, type PanelSessionsStore } from './panel-sessions';
import { createPanelUsersStore, type PanelUsersStore } from './panel-users';
import { createPoliciesStore, type PoliciesStore } from './policies';
import type { SecretBox } from './secret-box';
import { createSchedulesStore, type SchedulesStore } from './schedules';
import { createSelfTestsStore, type SelfTestsStore } from './self-tests';
import { createSignedRequestsStore, type SignedRequestsStore } from './signed-requests';
import type { SqlConnection } from './sql/connection';
import { createUsageStore, type UsageStore } from './usage';
import { createVoiceDeskStore, type VoiceDeskStore } from './voice-desk';
import { createFallbacksStore, type FallbacksStore } from './fallbacks';
import { createPeopleStore, type PeopleStore } from './people';
import { createTextNoticesStore, type TextNoticesStore } from './text-notices';
import { createImportSourcesStore, type ImportSourcesStore } from './import-sources';
import { createHandoffsStore, type HandoffsStore } from './handoffs';
import { createImportRunsStore, type ImportRunsStore } from './import-runs';

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
  /** Maintenance windows and the alerts they suppress (docs/on-call.md "Maintenance windows"). */
  maintenance: MaintenanceStore;
  /** Dead man's switches: ping tokens and deadlines (docs/on-call.md "Heartbeats"). */
  heartbeats: HeartbeatsStore;
  /** Voice-path self-test results and each trunk's schedule (docs/telephony.md "Voice-path self-test"). */
  selfTests: SelfTestsStore;
  /** On-call schedules and their overrides (docs/on-call.md "On-call schedules"). */
  schedules: SchedulesStore;
  /** Voice desk PINs and policies (docs/telephony.md "Voice desk"). */
  voiceDesk: VoiceDeskStore;
  /** Who each account calls when nothing else resolves (docs/on-call.md "Nothing silently calls nobody"). */
  fallbacks: FallbacksStore;
  /** Who is reached, with their phones in order (docs/on-call.md "People"). */
  people: PeopleStore;
  /** The second path's notices owed to people, texts and e-mails recorded on alerts (docs/second-path.md). */
  textNotices: TextNoticesStore;
  /** What each imported object came from (docs/integrations.md "Moving from Opsgenie or PagerDuty"). */
  importSources: ImportSourcesStore;
  /** Hand-offs of schedules that call the incoming person (docs/on-call.md "Hand-off calls"). */
  handoffs: HandoffsStore;
  /** The last applied import plan and parity check per source (docs/panel.md "Import"). */
  importRuns: ImportRunsStore;
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

/** How each table group is made over a connection: one line each, the one list of them. */
const FACTORIES: { [K in keyof Tables]: (db: SqlConnection, deps: TableDeps) => Tables[K] } = {
  accounts: (db, d) => createAccountsStore(db, d.clock),
  credentials: (db, d) => createCredentialsStore(db, d.box, d.clock),
  usage: (db) => createUsageStore(db),
  calls: (db) => createCallsStore(db),
  alerts: (db) => createAlertsStore(db),
  policies: (db) => createPoliciesStore(db),
  escalations: (db) => createEscalationsStore(db),
  history: (db) => createHistoryStore(db),
  health: (db) => createHealthStore(db),
  idempotency: (db) => createIdempotencyStore(db),
  signedRequests: (db) => createSignedRequestsStore(db),
  outbox: (db, d) => createOutboxStore(db, d.box),
  panelUsers: (db, d) => createPanelUsersStore(db, d.clock),
  panelSessions: (db) => createPanelSessionsStore(db),
  loginFailures: (db) => createLoginFailuresStore(db),
  panelQueries: (db) => createPanelQueries(db),
  opsCounts: (db) => createOpsCountsStore(db),
  maintenance: (db) => createMaintenanceStore(db),
  heartbeats: (db) => createHeartbeatsStore(db),
  selfTests: (db) => createSelfTestsStore(db),
  schedules: (db) => createSchedulesStore(db),
  voiceDesk: (db) => createVoiceDeskStore(db),
  fallbacks: (db) => createFallbacksStore(db),
  people: (db) => createPeopleStore(db),
  textNotices: (db) => createTextNoticesStore(db),
  importSources: (db) => createImportSourcesStore(db),
  handoffs: (db) => createHandoffsStore(db),
  importRuns: (db) => createImportRunsStore(db),
};

/** The names of the table groups. */
export const TABLE_NAMES = Object.keys(FACTORIES) as (keyof Tables)[];

/**
 * The table groups over `db`, each made on first use: a transaction touches only a few.
 * Enumerable getters, so a copy made with `{ ...tx }` carries them.
 */
export function bindTables(db: SqlConnection, deps: TableDeps): Tx {
  const tx = { serializeOn: createKeyLock(db) } as Tx;
  for (const name of TABLE_NAMES) {
    let made: Tables[typeof name] | undefined;
    Object.defineProperty(tx, name, { enumerable: true, get: () => (made ??= FACTORIES[name](db, deps)) });
  }
  return tx;
}
