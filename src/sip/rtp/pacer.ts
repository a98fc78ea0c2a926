/**
 * One clock for every RTP stream in a thread: a single timer on a 20 ms grid (from
 * performance.now, monotonic) instead of one timer per call. With 200 calls, 200 timers
 * each drift on their own; one tick sends every stream's due packet together, so each
 * stream's spacing is the grid's. Each stream still keeps its own schedule (start + n·20 ms)
 * and sends everything due at a late tick, so lateness never accumulates into drift.
 */
export interface Pacer {
  /** The next grid instant: a stream's packet n is due at this + n·20 ms. */
  nextTick(): number;
  /** Calls `send(now)` at every tick until the returned function is called. */
  add(send: (now: number) => void): () => void;
}

export interface PacerOptions {
  periodMs?: number;
  /**
   * Wake this many ms before each grid instant and block the thread for the rest.
   * A timer fires 0–2 ms late, which shows as jitter; blocking for the last stretch lands
   * the tick within a few µs. Only for a thread that does nothing else (the RTP worker):
   * on the main thread it would stall everything else.
   */
  blockLastMs?: number;
  /**
   * A sender threw: it is removed and reported here, and the others still send (one bad
   * call must not stop them all, nor flood the log at every tick).
   */
  onError?: (error: unknown) => void;
}

const sleepCell = () => new Int32Array(new SharedArrayBuffer(4));

export function createPacer(o: PacerOptions = {}): Pacer {
  const periodMs = o.periodMs ?? 20;
  const blockMs = o.blockLastMs ?? 0;
  const cell = blockMs > 0 ? sleepCell() : null;
  const origin = performance.now();
  const senders = new Set<(now: number) => void>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let due = 0;
  const gridAfter = (t: number) => origin + Math.floor((t - origin) / periodMs + 1) * periodMs;
  const schedule = () => {
    const now = performance.now();
    due = gridAfter(now);
    timer = setTimeout(tick, Math.max(0, due - now - blockMs));
  };
  const tick = () => {
    let now = performance.now();
    // A wait may end a hair early (its clock rounds): wait again for the remainder.
    while (cell && due - now > 0) {
      Atomics.wait(cell, 0, 0, due - now);
      now = performance.now();
    }
    for (const s of senders) {
      try {
        s(now);
      } catch (e) {
        senders.delete(s);
        o.onError?.(e);
      }
    }
    if (senders.size > 0) schedule();
    else timer = null;
  };
  return {
    nextTick: () => gridAfter(performance.now()),
    add(send) {
      senders.add(send);
      if (!timer) schedule();
      return () => senders.delete(send);
    },
  };
}
