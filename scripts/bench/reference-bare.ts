// HTTP ceiling for scripts/bench-ingest: Bun.serve answering the webhook's JSON, no database.
const body = JSON.stringify({ status: 'success', message: '1 call(s) queued', call_ids: ['call_reference'] });
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(req) {
    await req.text();
    return new Response(body, { headers: { 'content-type': 'application/json; charset=utf-8' } });
  },
});
console.log(`READY http://127.0.0.1:${server.port}`);
