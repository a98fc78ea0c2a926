import { Elysia } from 'elysia';
import { acceptApiCall } from '../intake';
import { handleAlert } from './alert-route';
import type { HttpDeps } from './deps';

/** POST /api/call: one call, credentials in the body (interface 4.1). */
export function callRoutes(deps: HttpDeps) {
  return new Elysia({ name: 'call' }).post(
    '/api/call',
    ({ request, server, query }) =>
      handleAlert(deps, '/api/call', { request, socketAddress: server?.requestIP(request)?.address, query }, (req) =>
        acceptApiCall(deps.intake, req),
      ),
    // The body is read raw: its size is checked first and json or form are both accepted.
    { parse: 'none' },
  );
}
