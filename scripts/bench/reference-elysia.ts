// Framework floor for scripts/bench-ingest: Elysia shaped like src/http/app.ts (an onRequest
// hook that sets X-Request-Id, a raw-body POST route answering a Response), no database.
// Between the bare Bun.serve and voice-alert, it tells the framework's share from ours.
import { Elysia } from 'elysia';
import { randomUUID } from 'node:crypto';

const body = JSON.stringify({ status: 'success', message: '1 call(s) queued', call_ids: ['call_reference'] });
const app = new Elysia()
  .onRequest(({ set }) => {
    set.headers['x-request-id'] = randomUUID();
  })
  .post(
    '/webhook/receive',
    async ({ request }) => {
      await request.arrayBuffer();
      return new Response(body, { headers: { 'content-type': 'application/json; charset=utf-8' } });
    },
    { parse: 'none' },
  );
app.listen({ hostname: '127.0.0.1', port: 0 });
console.log(`READY http://127.0.0.1:${app.server!.port}`);
