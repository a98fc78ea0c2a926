import { timingSafeEqual } from 'node:crypto';
import { logPanelAction } from './action-log';
import { canSeeAccount, isAdmin } from '../../panel';
import { clientIp } from '../client-ip';
import { bodyProblemOf } from './body';
import { readCookie, SESSION_COOKIE } from './cookies';
import type { PanelCtx, PanelEnv } from './env';
import { createFormatter } from './format';
import { redirect } from './html';
import { messagesFor, type Messages } from './i18n';
import { languageOf } from './language';
import type { PanelUser } from '../../store';
import { errorPage } from './views/error-page';

export interface GuardOptions {
  /** Administrators only: others get 403. */
  admin?: boolean;
  /** The path has `:accountId`: unknown or someone else's account is a 404. */
  account?: boolean;
}

/** What Elysia hands a route; only these fields are read, nothing else leaks inward. */
export interface RouteInput {
  request: Request;
  params?: Record<string, string>;
  query?: Record<string, string | undefined>;
  body?: unknown;
  server?: { requestIP(r: Request): { address: string } | null } | null;
}

export function sameToken(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function formOf(body: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (body && typeof body === 'object') {
    for (const [k, v] of Object.entries(body)) if (typeof v === 'string' || typeof v === 'number') out[k] = String(v);
  }
  return out;
}

export function ipOf(env: PanelEnv, input: RouteInput): string {
  return clientIp(input.request, input.server?.requestIP(input.request)?.address, env.deps.config.http.trust_proxy);
}

/** A body the panel refused to parse (body.ts): 413 too large, 400 malformed. */
export function bodyProblemPage(t: Messages, status: 400 | 413, user?: PanelUser, csrf?: string): Response {
  return errorPage(t, status, status === 413 ? t.bodyTooLarge : t.bodyMalformed, user, csrf);
}

/**
 * Wraps a panel handler: a valid session (else the login page), the CSRF token on every
 * POST (else 403), the role, and the account in the path. Every write that got that far
 * is logged once here (action-log.ts), whatever the route.
 */
export function guarded(env: PanelEnv, options: GuardOptions, handler: (c: PanelCtx) => Response | Promise<Response>) {
  return async (input: RouteInput): Promise<Response> => {
    const { request } = input;
    const token = readCookie(request, SESSION_COOKIE);
    const active = await env.services.sessions.resolve(token);
    const t = messagesFor(languageOf(request, env.deps.config.panel.language, active?.user));
    const fmt = createFormatter(t, env.deps.config.credit.timezone);
    // Before the session check: a refused body is refused for everyone, and the same way.
    const problem = bodyProblemOf(input.body);
    if (problem) return bodyProblemPage(t, problem.status, active?.user, active?.session.csrfToken);
    if (!active || !token) {
      if (request.method === 'GET') return redirect('/panel/login');
      return errorPage(t, 401, t.csrfFailed);
    }
    const form = formOf(input.body);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      const given = form._csrf ?? request.headers.get('x-csrf-token') ?? undefined;
      if (!sameToken(given, active.session.csrfToken)) return errorPage(t, 403, t.csrfFailed, active.user, active.session.csrfToken);
    }
    if (options.admin && !isAdmin(active.user)) return errorPage(t, 403, t.forbidden, active.user, active.session.csrfToken);
    const params = input.params ?? {};
    let account = null;
    if (options.account) {
      const id = params.accountId ?? '';
      account = await env.services.panelReads.account(id);
      if (!account || !canSeeAccount(active.user, id)) return errorPage(t, 404, t.notFound, active.user, active.session.csrfToken);
    }
    const query: Record<string, string> = {};
    for (const [k, v] of Object.entries(input.query ?? {})) if (typeof v === 'string') query[k] = v;
    const response = await handler({
      env,
      request,
      t,
      fmt,
      user: active.user,
      csrf: active.session.csrfToken,
      token,
      account: account!,
      params,
      query,
      form,
      ip: ipOf(env, input),
    });
    if (request.method !== 'GET' && request.method !== 'HEAD') logPanelAction(env.deps.log, active.user, request, response.status);
    return response;
  };
}
