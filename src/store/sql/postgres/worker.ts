import { SQL } from 'bun';
import { deserialize, serialize } from 'bun:jsc';
import { CHUNK, LAST, LENGTH, NEXT, REQUEST, STATE, type BridgeAnswer, type BridgeInit, type BridgeRequest } from './protocol';

/**
 * The PostgreSQL worker: owns one connection and runs the main thread's statements on it,
 * one at a time, in order (protocol.ts). One connection, because the store above is a
 * single writer per appliance like SQLite's: its transactions are plain BEGIN … COMMIT on
 * this connection.
 */
declare const self: Worker;

let sql: SQL;
let connection: Awaited<ReturnType<SQL['reserve']>> | null = null;
/** Between BEGIN and COMMIT/ROLLBACK. A connection lost inside one must not silently continue outside it. */
let inTransaction = false;
let lostTransaction = false;

self.onmessage = (e: MessageEvent<BridgeInit>) => {
  const init = e.data;
  // bigint: int8 columns (unix ms, counts) arrive exact and are made numbers in `plain`.
  sql = new SQL({ url: init.url, max: 1, bigint: true, idleTimeout: 0, connectionTimeout: init.connectTimeoutS });
  void serve(new Int32Array(init.control), new Uint8Array(init.buffer));
};

async function serve(control: Int32Array, buffer: Uint8Array): Promise<void> {
  for (;;) {
    await waitFor(control, REQUEST);
    const request = deserialize(buffer.slice(0, Atomics.load(control, LENGTH))) as BridgeRequest;
    const answer = serialize(await answerTo(request), { binaryType: 'nodebuffer' }) as Buffer;
    let offset = 0;
    for (;;) {
      const n = Math.min(buffer.length, answer.length - offset);
      buffer.set(answer.subarray(offset, offset + n));
      offset += n;
      Atomics.store(control, LENGTH, n);
      const last = offset >= answer.length;
      Atomics.store(control, STATE, last ? LAST : CHUNK);
      Atomics.notify(control, STATE);
      if (last) break;
      await waitFor(control, NEXT);
    }
  }
}

async function waitFor(control: Int32Array, state: number): Promise<void> {
  for (;;) {
    const now = Atomics.load(control, STATE);
    if (now === state) return;
    const w = Atomics.waitAsync(control, STATE, now);
    if (w.async) await w.value;
  }
}

async function answerTo(r: BridgeRequest): Promise<BridgeAnswer> {
  const control = r.op === 'exec' ? r.sql.trim().toUpperCase() : '';
  if (lostTransaction) {
    // The connection died inside a transaction: refuse everything until the store rolls back.
    if (control === 'ROLLBACK') {
      lostTransaction = false;
      inTransaction = false;
      return { ok: true };
    }
    return { ok: false, message: 'database connection lost inside a transaction' };
  }
  try {
    connection ??= await sql.reserve();
    for (const command of r.before ?? []) {
      await connection.unsafe(command).simple();
      track(command.toUpperCase());
    }
    if (r.op === 'exec') {
      await connection.unsafe(r.sql).simple();
      track(control);
      return { ok: true };
    }
    const q = connection.unsafe(r.sql, r.params);
    if (r.mode === 'values') return { ok: true, rows: ((await q.values()) as unknown[][]).map((row) => row.map(plain)) };
    const result = await q;
    const rows = r.mode === 'run' ? undefined : (result as unknown[]).slice(0, r.mode === 'get' ? 1 : undefined).map(plainRow);
    return { ok: true, rows, changes: (result as unknown as { count: number }).count ?? 0 };
  } catch (e) {
    const err = e as { message?: string; errno?: string; code?: string };
    const serverError = typeof err.errno === 'string' && /^[0-9A-Z]{5}$/.test(err.errno);
    const lost = !serverError && CONNECTION_TROUBLE.test(`${err.code ?? ''} ${err.message ?? ''}`);
    if (lost) {
      // Not an answer from the server: the connection is gone. A fresh one next time.
      connection?.release();
      connection = null;
      if (inTransaction) lostTransaction = true;
    }
    return { ok: false, message: err.message ?? String(e), sqlState: serverError ? err.errno : undefined, lost };
  }
}

function track(control: string): void {
  if (control.startsWith('BEGIN')) inTransaction = true;
  else if (control === 'COMMIT' || control === 'ROLLBACK') inTransaction = false;
}

/** Errors of the connection rather than of a statement (Bun.SQL's codes, the OS's). */
const CONNECTION_TROUBLE = /CONNECTION|ECONN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EPIPE|SOCKET|closed|connect/i;

/** Values as bun:sqlite gives them: int8 as number, booleans as 0/1. */
function plain(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  return v;
}

function plainRow(row: unknown): unknown {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row as Record<string, unknown>)) out[k] = plain(v);
  return out;
}

