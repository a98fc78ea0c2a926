import type { Logger } from '../../log';
import type { PanelUser } from '../../store';

/**
 * One log line per write made through the panel (issue 15 §6): who (user id, login, role),
 * what (method and path: the path names the account, key or alert acted on) and how it
 * ended (the status answered). Never the form: it carries passwords and secrets.
 */
export function logPanelAction(log: Logger, user: PanelUser, request: Request, status: number): void {
  const path = new URL(request.url).pathname;
  log.info({ user: user.id, login: user.login, role: user.role, method: request.method, path, status }, 'panel action');
}
