import { createAccountServices, type AccountServices } from '../../accounts';
import { createAlertActions, type AlertActions } from '../../alerts';
import type { CallAudioSource } from '../../call-model';
import type { Account, PanelUser } from '../../store';
import {
  createLoginService,
  createPasswordChanges,
  createSessionService,
  type LoginService,
  type PasswordChanges,
  type SessionService,
} from '../../panel';
import type { HttpDeps } from '../deps';
import type { Formatter } from './format';
import type { Messages } from './i18n';

/**
 * What the panel's routes share: the HTTP deps for reading, the services for every
 * write, and the speech pipeline. A route reads, calls a service, renders; it never
 * writes to the store itself.
 */
export interface PanelEnv {
  deps: HttpDeps;
  sessions: SessionService;
  login: LoginService;
  /** Own password changes (checked through `login`), owners' resets. */
  passwords: PasswordChanges;
  /** Accounts, credentials, owners, test calls: the same services the CLI uses. */
  services: AccountServices;
  /** Acknowledge and resolve by hand: the same actions the API and the CLI use. */
  alerts: AlertActions;
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
        trunkConfigured: () => (deps.trunkStatus ? deps.trunkStatus().state !== 'not_configured' : deps.config.sip.server !== ''),
      },
    }),
    alerts: createAlertActions({ store: deps.store, clock: deps.clock, timeZone: deps.config.credit.timezone }),
  };
}
