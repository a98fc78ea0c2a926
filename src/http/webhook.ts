import { Elysia } from 'elysia';
import { acceptWebhook } from '../intake';
import { handleAlert } from './alert-route';
import type { HttpDeps } from './deps';

/** POST /webhook/receive: a call per number, keyed by the webhook key (interface 4.2). */
export function webhookRoutes(deps: HttpDeps) {
  return new Elysia({ name: 'webhook' }).post(
    '/webhook/receive',
    ({ request, server, query }) =>
      handleAlert(
        deps,
        '/webhook/receive',
        { request, socketAddress: server?.requestIP(request)?.address, query },
        (req) => acceptWebhook(deps.intake, req),
      ),
    // Raw body: json, form and text/plain are read by the intake, after the key check.
    { parse: 'none' },
  );
}
