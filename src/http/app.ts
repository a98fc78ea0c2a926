import { Elysia } from 'elysia';
import { callRoutes } from './call';
import { callStatusRoutes } from './call-status';
import type { HttpDeps } from './deps';
import { healthRoutes } from './health';
import { EDGE } from './outcome-table';
import { errorResponse, requestIdFor } from './respond';
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
 * answer shares: X-Request-Id, JSON 404/405, and one onError that turns anything
 * unexpected into a 500 with no internals in the body. The process keeps serving.
 */
export function createHttpApp(deps: HttpDeps, features: Elysia<any>[] = []) {
  const app = new Elysia()
    .onRequest(({ request, set }) => {
      set.headers['x-request-id'] = requestIdFor(request);
    })
    .onError({ as: 'global' }, ({ code, error, request }) => {
      if (code === 'NOT_FOUND') {
        const allow = allowedMethods(app.routes, new URL(request.url).pathname);
        if (allow.length > 0) {
          return errorResponse(EDGE.methodNotAllowed.status, EDGE.methodNotAllowed.message, { allow: allow.join(', ') });
        }
        return errorResponse(EDGE.notFound.status, EDGE.notFound.message);
      }
      deps.log.error({ err: error, code, requestId: requestIdFor(request), path: new URL(request.url).pathname }, 'request failed');
      return errorResponse(EDGE.internal.status, EDGE.internal.message);
    })
    .use(healthRoutes(deps))
    .use(callRoutes(deps))
    .use(callStatusRoutes(deps))
    .use(webhookRoutes(deps));
  for (const f of features) app.use(f);
  return app;
}

export type HttpApp = ReturnType<typeof createHttpApp>;
