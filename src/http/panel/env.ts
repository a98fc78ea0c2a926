import type { CallAudioSource } from '../../call-model';
import type { Account, PanelUser } from '../../store';
import type { Services } from '../../services';
import type { HttpDeps } from '../deps';
import type { Formatter } from './format';
import type { Messages } from './i18n';

/**
 * What the panel's routes share: the registry's services (the reads of its pages and every
 * write) and the speech pipeline. A route reads, calls a service, renders; it never touches the
 * store itself.
 */
export interface PanelEnv {
  deps: HttpDeps;
  /**
   * Every service (src/services.ts), the same the API and the CLI use: the pages' reads
   * (`panelReads`, scoped to the account in the path), sessions, login, passwords, alert
   * actions, policies, users' preferences …
   */
  services: Services;
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
  return { deps, services: deps.services, speech: options.speech };
}
