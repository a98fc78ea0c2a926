/**
 * The synchronous bridge between the main thread and the PostgreSQL worker (worker.ts),
 * over shared memory: the main thread writes a request and blocks in `Atomics.wait`; the
 * worker, whose event loop is free, runs it on its connection and writes the answer back,
 * in chunks when it is larger than the buffer. Why synchronous: see bridge.ts.
 *
 * `control` slots: [STATE, LENGTH]. STATE walks IDLE → REQUEST → (CHUNK → NEXT)* → LAST → IDLE.
 */
export const STATE = 0;
export const LENGTH = 1;
export const CONTROL_SLOTS = 2;

export const IDLE = 0;
/** Main → worker: a request of LENGTH bytes is in the buffer. */
export const REQUEST = 1;
/** Worker → main: LENGTH bytes of the answer; more follow. */
export const CHUNK = 2;
/** Worker → main: the answer's last LENGTH bytes. */
export const LAST = 3;
/** Main → worker: the chunk was read; write the next. */
export const NEXT = 4;

export type QueryMode = 'run' | 'get' | 'all' | 'values';

/**
 * `before`: transaction control the main thread deferred (connection.ts): run first, in
 * order; if one fails, the request is not run and the answer is that failure.
 */
export type BridgeRequest =
  | { op: 'query'; sql: string; params: unknown[]; mode: QueryMode; before?: string[] }
  /** No parameters, simple protocol: DDL, several statements, BEGIN/COMMIT. */
  | { op: 'exec'; sql: string; before?: string[] };

export type BridgeAnswer =
  | { ok: true; rows?: unknown[]; changes?: number }
  /** `lost`: the server could not be reached, or the connection broke (not an answer from it). */
  | { ok: false; message: string; sqlState?: string; lost?: boolean };

/** Sent once with postMessage when the worker starts. */
export interface BridgeInit {
  url: string;
  control: SharedArrayBuffer;
  buffer: SharedArrayBuffer;
  connectTimeoutS: number;
}
