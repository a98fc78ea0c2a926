import { SQL } from 'bun';
import { deserialize, serialize } from 'bun:jsc';
import { CHUNK, LAST, LENGTH, NEXT, REQUEST, STATE, type BridgeAnswer, type BridgeInit, type BridgeRequest, type BridgeStep, type StepAnswer } from './protocol';

/**
 * The PostgreSQL worker: owns one connection and runs the main thread's statements on it,
 * in order, a request's statements pipelined (protocol.ts). One connection, because the store above is a
 * single writer per appliance like SQLite's: its transactions are plain BEGIN … COMMIT on
 * this connection.
 */
declare const self: Worker;

let sql: SQL;
let connection: Connection | null = null;
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
  if (lostTransaction) {
    // The connection died inside a transaction: refuse everything until the store rolls back.
    if (r.steps.length === 1 && controlWord(r.steps[0]!) === 'ROLLBACK') {
      lostTransaction = false;
      inTransaction = false;
      return { ok: true, answers: [{}] };
    }
    return { ok: false, failedAt: 0, message: 'database connection lost inside a transaction' };
  }
  let at = 0;
  try {
    connection ??= await sql.reserve();
    const answers: StepAnswer[] = [];
    // Sent without waiting, so they share round trips to the server; awaited in order, and
    // the first failure is the answer (PostgreSQL fails the ones after it in the transaction).
    let inflight: Promise<StepAnswer>[] = [];
    const settle = async () => {
      const settled = await Promise.allSettled(inflight);
      inflight = [];
      for (const s of settled) {
        if (s.status === 'rejected') throw s.reason;
        answers.push(s.value);
        at++;
      }
    };
    for (const step of r.steps) {
      const word = controlWord(step);
      if (word === 'COMMIT' || word === 'ROLLBACK' || (step.mode === 'simple' && !TRANSACTION_CONTROL.test(word))) {
        await settle();
        answers.push(await start(connection, step));
        track(word);
        at++;
      } else {
        inflight.push(start(connection, step).then((a) => (track(word), a)));
      }
    }
    await settle();
    return { ok: true, answers };
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
    return { ok: false, failedAt: at, message: err.message ?? String(e), sqlState: serverError ? err.errno : undefined, lost };
  }
}

type Connection = Awaited<ReturnType<SQL['reserve']>>;

/**
 * Transaction control goes by the extended protocol like the statements around it: Bun.SQL
 * sends a simple-protocol query only after the pipelined ones before it were answered
 * (measured), which would move a SAVEPOINT after the write it was meant to precede. Other
 * simple steps (DDL, several statements) run alone, after everything before them.
 */
const TRANSACTION_CONTROL = /^(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/;

function start(connection: Connection, step: BridgeStep): Promise<StepAnswer> {
  if (step.mode === 'simple') {
    const q = connection.unsafe(step.sql);
    return (TRANSACTION_CONTROL.test(controlWord(step)) ? q.execute() : q.simple()).then(() => ({}));
  }
  const q = connection.unsafe(step.sql, step.params);
  if (step.mode === 'values') return q.values().then((rows: unknown[][]) => ({ rows: rows.map((row) => row.map(plain)) }));
  const { mode, expect } = step;
  return q.execute().then((result: unknown) => {
    const changes = (result as { count?: number }).count ?? 0;
    // Not a PostgreSQL error, so the statements after it still ran: the COMMIT after them
    // waits for this answer (answerTo), so the transaction is left for the store to roll back.
    if (expect !== undefined && changes !== expect) throw new Error(`a held-back write changed ${changes} rows, ${expect} expected`);
    return { rows: mode === 'run' ? undefined : (result as unknown[]).slice(0, mode === 'get' ? 1 : undefined).map(plainRow), changes };
  });
}

/** BEGIN, COMMIT, ROLLBACK … of a simple step, upper case; '' for anything else. */
function controlWord(step: BridgeStep): string {
  return step.mode === 'simple' ? step.sql.trim().toUpperCase() : '';
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

