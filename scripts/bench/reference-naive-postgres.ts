// The PostgreSQL floor for scripts/bench-ingest --store postgres: a bare Bun.serve that makes
// one single-row INSERT (its own transaction, synchronous_commit = on) through a Bun.SQL pool
// of the appliance's default size before answering. No framework, no validation, one index:
// the least a durable answer costs the database and its client on this machine.
// Usage: bun scripts/bench/reference-naive-postgres.ts POSTGRES_URL
import { SQL } from 'bun';
import { randomUUID } from 'node:crypto';

const sql = new SQL({ url: process.argv[2]!, max: 10 });
await sql`CREATE TABLE IF NOT EXISTS calls (id TEXT PRIMARY KEY, phone_number TEXT, message TEXT, created_at BIGINT)`;
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(req) {
    const { phone_number = '', error_message = '' } = (await req.json()) as Record<string, string>;
    const id = `call_${randomUUID()}`;
    await sql`INSERT INTO calls VALUES (${id}, ${phone_number}, ${error_message}, ${Date.now()})`;
    return new Response(JSON.stringify({ status: 'success', message: '1 call(s) queued', call_ids: [id] }), {
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
  },
});
console.log(`READY http://127.0.0.1:${server.port}`);
