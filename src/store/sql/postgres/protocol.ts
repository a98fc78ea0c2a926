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
 * One statement of a request: with parameters and a mode (extended protocol), or `simple`
 * (no parameters, simple protocol: DDL, several statements, transaction control).
 */
export type BridgeStep =
  /** `expect`: the rows it must change, or the request fails at it (connection.ts `runExpecting`). */
  | { sql: string; params: unknown[]; mode: QueryMode; expect?: number }
  | { sql: string; mode: 'simple' };

/**
 * A request is the statements the main thread waits for at once: those it deferred
 * (connection.ts: transaction control, and writes nobody reads the answer of), then
 * usually one it needs the answer of. The worker pipelines them on its connection; a
 * COMMIT waits until everything before it has succeeded (PostgreSQL would answer a COMMIT
 * of a failed transaction with a rollback, not an error).
 */
export interface BridgeRequest {
  steps: BridgeStep[];
}

export interface StepAnswer {
  rows?: unknown[];
  changes?: number;
}

export type BridgeAnswer =
  /** One answer per step, in order. */
  | { ok: true; answers: StepAnswer[] }
  /**
   * `failedAt`: the first step that failed (those after it did not run, or failed because
   * it did). `lost`: the server could not be reached, or the connection broke (not an answer from it).
   */
  | { ok: false; message: string; failedAt: number; sqlState?: string; lost?: boolean };

/** Sent once with postMessage when the worker starts. */
export interface BridgeInit {
  url: string;
  control: SharedArrayBuffer;
  buffer: SharedArrayBuffer;
  connectTimeoutS: number;
}
