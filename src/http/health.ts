import { Elysia } from 'elysia';
import type { HttpDeps } from './deps';
import { errorResponse, jsonResponse } from './respond';

/** GET /healthz: 200 while the database answers, 503 when it does not (for systemd and load balancers). */
export function healthRoutes(deps: HttpDeps) {
  return new Elysia({ name: 'health' }).get('/healthz', () =>
    deps.store.ping()
      ? jsonResponse(200, { status: 'success', message: 'ok' })
      : errorResponse('database_unavailable'),
  );
}
