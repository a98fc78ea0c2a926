// The naive durable servers of scripts/bench-ingest: a bare Bun.serve that makes one
// single-row INSERT, its own transaction, before answering.
//   bun scripts/bench/reference-naive.ts FILE            SQLite, an fsync per request
//     (synchronous=FULL): what group commit beats.
//   bun scripts/bench/reference-naive.ts postgres://…    PostgreSQL (synchronous_commit on),
//     through a Bun.SQL pool of the appliance's default size: no framework, no validation,
//     one index, the least a durable answer costs the database and its client (the floor
//     of scripts/bench-ingest --store postgres).
import { Database } from 'bun:sqlite';
import { SQL } from 'bun';
import { randomUUID } from 'node:crypto';

type Insert = (id: string, phone: string, message: string, now: number) => Promise<unknown> | unknown;

async function naiveInsert(target: string): Promise<Insert> {
  if (target.startsWith('postgres://')) {
    const sql = new SQL({ url: target, max: 10 });
    await sql`CREATE TABLE IF NOT EXISTS calls (id TEXT PRIMARY KEY, phone_number TEXT, message TEXT, created_at BIGINT)`;
    return (id, phone, message, now) => sql`INSERT INTO calls VALUES (${id}, ${phone}, ${message}, ${now})`;
  }
  const db = new Database(target, { create: true });
  db.run('PRAGMA busy_timeout = 5000');
  db.run('PRAGMA journal_mode = WAL');
  db.run('PRAGMA synchronous = FULL');
  db.run('CREATE TABLE IF NOT EXISTS calls (id TEXT PRIMARY KEY, phone_number TEXT, message TEXT, created_at INTEGER)');
  const insert = db.query('INSERT INTO calls VALUES ($id, $phone, $message, $now)');
  return (id, phone, message, now) => insert.run({ id, phone, message, now });
}

const insert = await naiveInsert(process.argv[2]!);
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(req) {
    const { phone_number = '', error_message = '' } = (await req.json()) as Record<string, string>;
    const id = `call_${randomUUID()}`;
    await insert(id, phone_number, error_message, Date.now());
    return new Response(JSON.stringify({ status: 'success', message: '1 call(s) queued', call_ids: [id] }), {
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
  },
});
console.log(`READY http://127.0.0.1:${server.port}`);
