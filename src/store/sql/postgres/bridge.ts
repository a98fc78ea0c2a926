import { deserialize, serialize } from 'bun:jsc';
import { CHUNK, CONTROL_SLOTS, IDLE, LAST, LENGTH, NEXT, REQUEST, STATE, type BridgeAnswer, type BridgeInit, type BridgeRequest } from './protocol';

/**
 * A synchronous call into the PostgreSQL worker (worker.ts).
 *
 * Why synchronous: every table group of src/store, and every caller's transaction, is
 * written against bun:sqlite's synchronous API (a write transaction is a plain function
 * run by the group committer). Keeping that shape lets both stores share every query and
 * every rule above them; the price is that the main thread waits for each round trip to
 * PostgreSQL, as it already waits for SQLite's fsync at each commit. What keeps that
 * price low: a request carries every statement held back until then (connection.ts), so a
 * batch of writes costs one round trip, its COMMIT. Media is unaffected
 * (RTP runs in its own worker). A round trip that takes longer than `timeoutMs` (the
 * server is gone) fails the statement and restarts the worker, so the process keeps
 * serving its errors instead of hanging.
 */
export interface PostgresBridge {
  call(request: BridgeRequest): BridgeAnswer;
  close(): void;
}

/** Refused before anything was sent: the server was not asked, nor is it gone. */
export class RequestTooLargeError extends Error {
  override readonly name = 'RequestTooLargeError';
}

export interface BridgeOptions {
  url: string;
  /** How long one statement may take before it fails (ms). */
  timeoutMs: number;
  /** Size of the shared buffer; larger requests are refused, larger answers come in chunks. */
  bufferBytes?: number;
}

const WORKER_URL = import.meta.url.includes('/$bunfs/') ? './store/sql/postgres/worker.ts' : new URL('./worker.ts', import.meta.url).href;

export function createPostgresBridge(o: BridgeOptions): PostgresBridge {
  const bufferBytes = o.bufferBytes ?? 4 << 20;
  let worker: Worker;
  let control: Int32Array;
  let buffer: Uint8Array;

  const start = () => {
    const init: BridgeInit = {
      url: o.url,
      control: new SharedArrayBuffer(CONTROL_SLOTS * 4),
      buffer: new SharedArrayBuffer(bufferBytes),
      connectTimeoutS: Math.max(1, Math.ceil(o.timeoutMs / 1000)),
    };
    control = new Int32Array(init.control);
    buffer = new Uint8Array(init.buffer);
    worker = new Worker(WORKER_URL);
    // The store closes it; until then it must not keep a finished CLI command alive.
    (worker as unknown as { unref(): void }).unref();
    worker.postMessage(init);
  };
  start();

  /** Blocks until STATE leaves `from`, or throws when the statement's time is up. */
  const waitWhile = (from: number, deadline: number) => {
    while (Atomics.load(control, STATE) === from) {
      const left = deadline - performance.now();
      if (left <= 0 || Atomics.wait(control, STATE, from, left) === 'timed-out') {
        if (Atomics.load(control, STATE) !== from) return;
        // The worker may be mid-statement on a dead server: start over with a fresh one
        // (PostgreSQL rolls back whatever that connection had open when it closes).
        worker.terminate();
        start();
        throw new Error(`database did not answer within ${o.timeoutMs} ms`);
      }
    }
  };

  return {
    call(request) {
      const bytes = serialize(request, { binaryType: 'nodebuffer' }) as Buffer;
      if (bytes.length > buffer.length) throw new RequestTooLargeError(`SQL request of ${bytes.length} bytes exceeds the bridge's ${buffer.length}`);
      const deadline = performance.now() + o.timeoutMs;
      buffer.set(bytes);
      Atomics.store(control, LENGTH, bytes.length);
      Atomics.store(control, STATE, REQUEST);
      Atomics.notify(control, STATE);
      const parts: Uint8Array[] = [];
      for (;;) {
        waitWhile(Atomics.load(control, STATE) === NEXT ? NEXT : REQUEST, deadline);
        const state = Atomics.load(control, STATE);
        parts.push(buffer.slice(0, Atomics.load(control, LENGTH)));
        if (state === LAST) break;
        if (state !== CHUNK) throw new Error(`SQL bridge in state ${state}`);
        Atomics.store(control, STATE, NEXT);
        Atomics.notify(control, STATE);
      }
      Atomics.store(control, STATE, IDLE);
      return deserialize(parts.length === 1 ? parts[0]! : Buffer.concat(parts)) as BridgeAnswer;
    },
    close() {
      worker.terminate();
    },
  };
}
