import { Elysia } from 'elysia';
import { alertRoutes } from './alerts';
import { callRoutes } from './call';
import { callStatusRoutes } from './call-status';
import { compatRoutes } from './compat-routes';
import { deleteRoutes } from './deletes';
import type { HttpDeps } from './deps';
import { healthRoutes } from './health';
import { maintenanceRoutes } from './maintenance';
import { heartbeatRoutes } from './heartbeats';
import { HSTS_VALUE, wantsHsts } from './hsts';
import { metricsRoutes } from './metrics';
import { redirect } from './panel/html';
import { createRequestCounter } from './request-metrics';
import { requestPath, requestUrl } from './request-path';
import { describeError } from '../log';
import { DatabaseUnavailableError } from '../store';
import { errorResponse, requestIdFor } from './respond';
import { sharedHeadersOntoResponse } from './shared-headers';
import { scheduleRoutes } from './schedules';
import { peopleRoutes } from './people';
import { coverageRoutes } from './coverage';
import { webhookRoutes } from './webhook';

/** Route patterns -> regexes, to tell 405 (path known, method not) from 404. */
function allowedMethods(routes: { method: string; path: string }[], pathname: string): string[] {
  const methods = new Set<string>();
  for (const r of routes) {
    const pattern = new RegExp('^' + r.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:\w+/g, '[^/]+') + '/?$');
    if (pattern.test(pathname)) methods.add(r.method);
  }
  return [...methods];
}

/**
 * The whole HTTP surface. Features are separate Elysia instances; this adds what every
 * answer shares: X-Request-Id, Strict-Transport-Security over TLS when http.hsts is set,
 * JSON 404/405, and one onError that turns anything
 * unexpected into a 500 with no internals in the body. The process keeps serving.
 * `GET /` sends a browser to the panel.
 * A database that did not answer within store.timeout_ms (DatabaseUnavailableError) is not
 * a bug but docs/http-api.md's `503 Database unavailable`, on every endpoint: nothing was
 * promised, and a monitoring tool retries.
 */
export function createHttpApp(deps: HttpDeps, features: Elysia<any>[] = []) {
  const requests = createRequestCounter();
  const app = new Elysia()
    // The fields it reads, by name: Elysia fills in the context fields its hooks' parameters
    // name, and a hook handed the whole context (`(ctx) => f(ctx)`) made every request build
    // its headers object and parse and re-encode its cookies (elysia/dist/sucrose.mjs,
    // isContextPassToFunction; BENCHMARKS.md "The context each request built").
    .onAfterResponse({ as: 'global' }, ({ request, route, set, responseValue }) => requests.count({ request, route, set, responseValue }))
    .onRequest(({ request, set }) => {
      set.headers['x-request-id'] = requestIdFor(request);
      if (wantsHsts(request, deps.config.http.hsts)) set.headers['strict-transport-security'] = HSTS_VALUE;
      // An unparseable Host: refused here, before any route or hook reads the URL.
      if (!requestUrl(request)) return errorResponse('malformed_request');
    })
    .onAfterHandle({ as: 'global' }, ({ response, set }) => sharedHeadersOntoResponse({ response, set }))
    .onError({ as: 'global' }, ({ code, error, request }) => {
      if (code === 'NOT_FOUND') {
        const allow = allowedMethods(app.routes, requestPath(request));
        if (allow.length > 0) return requests.noteError(request, errorResponse('method_not_allowed', { headers: { allow: allow.join(', ') } }));
        return requests.noteError(request, errorResponse('not_found'));
      }
      // The message names what failed; the stack only at debug level (issue 10: no stack in
      // a log line by default, it carries source paths and sometimes values).
      const requestId = requestIdFor(request);
      if (error instanceof DatabaseUnavailableError) {
        deps.log.warn({ error: describeError(error), requestId, path: requestPath(request) }, 'request refused: database unavailable');
        return requests.noteError(request, errorResponse('database_unavailable'));
      }
      deps.log.error({ error: describeError(error), code, requestId, path: requestPath(request) }, 'request failed');
      deps.log.debug({ err: error, requestId }, 'request failed: stack');
      return requests.noteError(request, errorResponse('internal_error'));
    })
    // A browser pointed at the appliance lands on the panel; the panel's own redirect (303).
    .get('/', () => redirect('/panel'))
    .use(healthRoutes(deps))
    .use(metricsRoutes(deps))
    .use(callRoutes(deps))
    .use(callStatusRoutes(deps))
    .use(alertRoutes(deps))
    .use(maintenanceRoutes(deps))
    .use(heartbeatRoutes(deps))
    .use(scheduleRoutes(deps))
    .use(peopleRoutes(deps))
    .use(coverageRoutes(deps))
    .use(deleteRoutes(deps))
    .use(webhookRoutes(deps))
    .use(compatRoutes(deps));
  for (const f of features) app.use(f);
  return app;
}

export type HttpApp = ReturnType<typeof createHttpApp>;
