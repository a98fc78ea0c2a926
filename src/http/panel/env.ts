import type { AlertActions } from '../../alerts';
import type { CallAudioSource } from '../../call-model';
import type { Account, PanelUser } from '../../store';
import type { PoliciesService } from '../../escalation';
import type { LoginService, PanelReads, PanelUsersService, PasswordChanges, SessionService } from '../../panel';
import type { Services } from '../../services';
import type { HttpDeps } from '../deps';
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
  /** Every service (src/services.ts): accounts, credentials, owners, test calls … the same the CLI uses. */
  services: Services;
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

/** The panel's view of the registry (deps.services): it builds no service of its own. */
export function createPanelEnv(deps: HttpDeps, options: { speech: CallAudioSource }): PanelEnv {
  const s = deps.services;
  return {
    deps,
    reads: s.panelReads,
    policies: s.policies,
    users: s.users,
    speech: options.speech,
    login: s.login,
    passwords: s.passwords,
    sessions: s.sessions,
    services: s,
    alerts: s.alerts,
  };
}
