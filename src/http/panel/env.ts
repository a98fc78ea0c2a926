import { createAccountServices, type AccountServices } from '../../accounts';
import { createAlertActions, type AlertActions } from '../../alerts';
import type { CallAudioSource } from '../../call-model';
import type { Account, PanelUser } from '../../store';
import { createPoliciesService, type PoliciesService } from '../../escalation';
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
} from '../../panel';
import type { HttpDeps } from '../deps';
import { trunkConfigured } from '../../config/sections/sip';
import type { Formatter } from './format';
import type { Messages } from './i18n';

/**
 * What the panel's routes share: the reads of its pages, the services for every write,
 * and the speech pipeline. A route reads, calls a service, renders; it never touches the
 * store itself.
 */
export interface PanelEnv {
  deps: HttpDeps;
  /** Everything the pages show, scoped to the account in the path (src/panel/reads.ts). */
  reads: PanelReads;
  sessions: SessionService;
  login: LoginService;
  /** Own password changes (checked through `login`), owners' resets. */
  passwords: PasswordChanges;
  /** Accounts, credentials, owners, test calls: the same services the CLI uses. */
  services: AccountServices;
  /** Acknowledge and resolve by hand: the same actions the API and the CLI use. */
  alerts: AlertActions;
  /** Escalation policies: the same service the CLI uses. */
  policies: PoliciesService;
  /** Panel users' own preferences (the language). */
  users: PanelUsersService;
  /** Renders what a call plays, for the players on the calls and settings pages (built in appliance.ts). */
  speech: CallAudioSource;
}

/** One request as a panel handler sees it, after the session and access checks. */
export interface PanelCtx {
  env: PanelEnv;
  request: Request;
  t: Messages;
  fmt: Formatter;
  user: PanelUser;
  csrf: string;
  /** The cookie token of this session. */
  token: string;
  /** The account in the path (`/panel/a/:accountId/…`), already checked against the user. */
  account: Account;
  params: Record<string, string>;
  query: Record<string, string>;
  form: Record<string, string>;
  ip: string;
}

export function createPanelEnv(deps: HttpDeps, options: { speech: CallAudioSource }): PanelEnv {
  const p = deps.config.panel;
  const login = createLoginService(deps.store, deps.clock, {
    maxFailures: p.login_max_failures,
    windowMs: p.login_window_min * 60_000,
    delayMs: p.login_delay_ms,
    delayMaxMs: p.login_delay_max_ms,
  });
  return {
    deps,
    reads: createPanelReads({ store: deps.store, clock: deps.clock, timeZone: deps.config.credit.timezone }),
    policies: createPoliciesService({ store: deps.store, clock: deps.clock }),
    users: createPanelUsersService(deps.store, deps.clock),
    speech: options.speech,
    login,
    passwords: createPasswordChanges(deps.store, login),
    sessions: createSessionService(deps.store, deps.clock, {
      idleMs: p.session_idle_min * 60_000,
      maxMs: p.session_max_hours * 3_600_000,
    }),
    services: createAccountServices({
      store: deps.store,
      clock: deps.clock,
      onQueued: deps.intake.onQueued,
      numberForms: deps.intake.numberForms,
      testCalls: {
        timeZone: deps.config.credit.timezone,
        // The live state when telephony runs here; the configuration otherwise (as the CLI's test-call).
        trunkConfigured: () => (deps.trunkStatus ? deps.trunkStatus().state !== 'not_configured' : trunkConfigured(deps.config.sip)),
      },
    }),
    alerts: createAlertActions({ store: deps.store, clock: deps.clock, timeZone: deps.config.credit.timezone }),
  };
}
