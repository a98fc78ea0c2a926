import { Elysia } from 'elysia';
import { randomToken } from '../../../ids';
import { clearedSessionCookie, readCookie, SESSION_COOKIE, sessionCookie, wantsSecureCookie } from '../cookies';
import type { PanelEnv } from '../env';
import { bodyProblemOf } from '../body';
import { bodyProblemPage, formOf, guarded, ipOf, sameToken, type RouteInput } from '../guard';
import { htmlResponse, redirect } from '../html';
import { fill, messagesFor, type Language } from '../i18n';
import { isLanguage, languageCookie, languageOf } from '../language';
import { LoginPage } from '../views/login-page';

// Before a session exists the CSRF token lives in its own short cookie (double submit):
// SameSite=Strict keeps other sites from sending it, the form field proves this page made the POST.
const LOGIN_CSRF_COOKIE = 'va_login_csrf';

/** GET/POST /panel/login, POST /panel/logout, GET /panel (landing: the overview). */
export function authRoutes(env: PanelEnv) {
  // The language the person chose in the panel (a cookie), also once logged out.
  const tFor = (request: Request) => messagesFor(languageOf(request, env.deps.config.panel.language));
  const secure = (r: Request) => wantsSecureCookie(env.deps.config.panel.secure_cookie, r, env.deps.config.http.trust_proxy);
  const loginPage = (request: Request, status: number, extra: { error?: string; info?: string; login?: string }) => {
    const csrf = randomToken(32);
    const cookie = `${LOGIN_CSRF_COOKIE}=${csrf}; Path=/panel/login; HttpOnly; SameSite=Strict; Max-Age=3600${secure(request) ? '; Secure' : ''}`;
    return htmlResponse(LoginPage({ t: tFor(request), csrf, ...extra }), status, { 'set-cookie': cookie });
  };

  return new Elysia({ name: 'panel-auth' })
    .get('/panel', async ({ request }) => {
      const active = await env.services.sessions.resolve(readCookie(request, SESSION_COOKIE));
      if (!active) return redirect('/panel/login');
      // Everyone lands on the overview (issue 15 §5): the trunk, the queue, what failed.
      return redirect('/panel/overview');
    })
    .get('/panel/login', async ({ request, query }) => {
      if (await env.services.sessions.resolve(readCookie(request, SESSION_COOKIE))) return redirect('/panel');
      return loginPage(request, 200, { info: query.bye !== undefined ? tFor(request).loggedOut : undefined });
    })
    .post('/panel/login', async (input: RouteInput) => {
      const { request } = input;
      const problem = bodyProblemOf(input.body);
      if (problem) return bodyProblemPage(tFor(request), problem.status);
      const form = formOf(input.body);
      if (!sameToken(form._csrf, readCookie(request, LOGIN_CSRF_COOKIE) ?? '')) {
        return loginPage(request, 403, { error: tFor(request).csrfFailed });
      }
      const result = await env.services.login.login(form.login ?? '', form.password ?? '', ipOf(env, input));
      if (!result.ok) {
        if (result.code === 'TOO_MANY_ATTEMPTS') {
          const res = loginPage(request, 429, { error: fill(tFor(request).loginThrottled, { n: Math.ceil(result.retryAfterS / 60) }), login: form.login });
          res.headers.set('retry-after', String(result.retryAfterS));
          return res;
        }
        return loginPage(request, 401, { error: tFor(request).loginInvalid, login: form.login });
      }
      const { token } = await env.services.sessions.start(result.user.id);
      // Housekeeping rides on logins (rare, never hot): expired sessions, stale failure counts.
      await Promise.all([env.services.sessions.prune(), env.services.login.prune()]);
      const maxAgeS = env.deps.config.panel.session_max_hours * 3600;
      const headers = new Headers({ location: '/panel', 'cache-control': 'no-store' });
      headers.append('set-cookie', sessionCookie(token, maxAgeS, secure(request)));
      headers.append('set-cookie', `${LOGIN_CSRF_COOKIE}=; Path=/panel/login; HttpOnly; SameSite=Strict; Max-Age=0`);
      // Their own language from now on, and on this browser's login page next time.
      if (isLanguage(result.user.language ?? undefined)) headers.append('set-cookie', languageCookie(result.user.language as Language, secure(request)));
      return new Response(null, { status: 303, headers });
    })
    .post(
      '/panel/logout',
      guarded(env, {}, async (c) => {
        await env.services.sessions.end(c.token);
        return redirect('/panel/login?bye', { 'set-cookie': clearedSessionCookie(secure(c.request)) });
      }),
    );
}
