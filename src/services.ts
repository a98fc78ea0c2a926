import { createAccountsService, createCallbacksService, createCredentialsService, createFallbackService, createTestCallsService, type AccountServices, type FallbackService } from './accounts';
import { createAlertActions, type AlertActions } from './alerts';
import type { Clock } from './clock';
import type { Config } from './config';
import { createPoliciesService, type PoliciesService } from './escalation';
import { createHeartbeatService, type HeartbeatService } from './heartbeats';
import { createImportService, type ImportService } from './importers';
import { createMaintenanceService, type MaintenanceService } from './maintenance';
import {
  createLoginService,
  createPanelReads,
  createPanelUsersService,
  createPasswordChanges,
  createSessionService,
  type LoginService,
  type PanelReads,
  type PanelUsersService,
  type PasswordChanges,
  type SessionService,
} from './panel';
import { createPeopleService, type PeopleService } from './people';
import { createSchedulesService, type SchedulesService } from './schedules';
import { createSelfTestRequests, type SelfTestRequests } from './self-test';
import type { Store } from './store';
import { createDeskService, type DeskService } from './voice-desk';

/**
 * The registry: every domain service, built once over one store, clock and configuration.
 * The server (appliance.ts), the panel (http/panel/env.ts, through HttpDeps) and the CLI
 * (cli/context.ts) take their services from here and never build one themselves, so a rule a
 * service carries (a time zone, number forms, the panel's login limits) is wired in one place.
 * Held by test/layout/source-layout.test.ts: a `create…Service(s)` factory, or any factory
 * called below, is called in this file only (tests aside).
 *
 * Background loops (escalation engine, heartbeat checker, window starter …) are not services:
 * they run on a timer and are started and stopped by appliance.ts.
 */
export interface Services extends AccountServices {
  /** Acknowledge and resolve by hand: the API, the CLI, the panel, the voice desk and the compatible intake (IntakeDeps.alerts). */
  alerts: AlertActions;
  policies: PoliciesService;
  schedules: SchedulesService;
  /** Who is reached, with their phones in order (docs/on-call.md "People"). */
  people: PeopleService;
  maintenance: MaintenanceService;
  heartbeats: HeartbeatService;
  /** Who is called when nothing else resolves (docs/on-call.md "Nothing silently calls nobody"). */
  fallbacks: FallbackService;
  /** The voice desk's PINs, policy and actions (the CLI's `desk`, desk calls). */
  desk: DeskService;
  /** Panel users (administrators, owners) and their preferences; `owners` is this same service. */
  users: PanelUsersService;
  login: LoginService;
  sessions: SessionService;
  /** Own password changes (checked through `login`), owners' resets, the CLI's admin password. */
  passwords: PasswordChanges;
  /** Everything the panel's pages show, scoped to the account in the path (src/panel/reads.ts). */
  panelReads: PanelReads;
  /** Each trunk's newest self-test, and "run now" (the panel's Trunks page); the server's scheduler runs it. */
  selfTests: SelfTestRequests;
  /** Import from Opsgenie or PagerDuty: plan, apply, check (the CLI's `import`, the panel's Import page). */
  imports: ImportService;
}

export interface ServicesDeps {
  store: Store;
  clock: Clock;
  config: Config;
  /** Told the ids of a committed test call, so the dialer looks at once (telephony runs here). */
  onQueued?: (callIds: string[]) => void;
  /**
   * Test calls from the panel (src/accounts/test-calls.ts): whether a trunk could dial one now
   * (the appliance: telephony's live state). Absent (the CLI, which dials its own test calls):
   * every test call is refused as no_trunk.
   */
  trunkConfigured?: () => boolean;
}

export function createServices({ store, clock, config, onQueued, trunkConfigured }: ServicesDeps): Services {
  const timeZone = config.credit.timezone;
  const numberForms = config.numbers.accept;
  const p = config.panel;
  const alerts = createAlertActions({ store, clock, timeZone });
  const users = createPanelUsersService(store, clock);
  const schedules = createSchedulesService({ store, clock });
  const login = createLoginService(store, clock, {
    maxFailures: p.login_max_failures,
    windowMs: p.login_window_min * 60_000,
    delayMs: p.login_delay_ms,
    delayMaxMs: p.login_delay_max_ms,
  });
  return {
    accounts: createAccountsService(store),
    credentials: createCredentialsService(store),
    owners: users,
    testCalls: createTestCallsService({
      store,
      clock,
      numberForms,
      ...(onQueued ? { onQueued } : {}),
      ...(trunkConfigured ? { testCalls: { timeZone, trunkConfigured } } : {}),
    }),
    callbacks: createCallbacksService(store),
    alerts,
    policies: createPoliciesService({ store, clock }),
    schedules,
    people: createPeopleService({ store, clock, numberForms, defaultLanguage: p.language }),
    maintenance: createMaintenanceService({ store, clock, timeZone }),
    heartbeats: createHeartbeatService({ store, clock, timeZone, numberForms }),
    fallbacks: createFallbackService({ store, clock, numberForms }),
    desk: createDeskService({ store, clock, alerts }),
    users,
    login,
    sessions: createSessionService(store, clock, { idleMs: p.session_idle_min * 60_000, maxMs: p.session_max_hours * 3_600_000 }),
    passwords: createPasswordChanges(store, login),
    panelReads: createPanelReads({ store, clock, timeZone }),
    selfTests: createSelfTestRequests({ store, clock, config }),
    // An apply writes through these same services, built over its one transaction.
    imports: createImportService({ store, clock, numberForms, schedules, servicesOn: (s) => createServices({ store: s, clock, config }) }),
  };
}
