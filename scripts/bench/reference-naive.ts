// The naive durable server for scripts/bench-ingest: one INSERT and one fsync (its own
// transaction, synchronous=FULL) per request before answering. What group commit beats.
import { Database } from 'bun:sqlite';
import { randomUUID } from 'node:crypto';

const db = new Database(process.argv[2]!, { create: true });
db.run('PRAGMA busy_timeout = 5000');
db.run('PRAGMA journal_mode = WAL');
db.run('PRAGMA synchronous = FULL');
db.run('CREATE TABLE IF NOT EXISTS calls (id TEXT PRIMARY KEY, phone_number TEXT, message TEXT, created_at INTEGER)');
const insert = db.query('INSERT INTO calls VALUES ($id, $phone, $message, $now)');
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(req) {
    const { phone_number = '', error_message = '' } = (await req.json()) as Record<string, string>;
    const id = `call_${randomUUID()}`;
    insert.run({ id, phone: phone_number, message: error_message, now: Date.now() });
    return new Response(JSON.stringify({ status: 'success', message: '1 call(s) queued', call_ids: [id] }), {
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
  },
});
console.log(`READY http://127.0.0.1:${server.port}`);
