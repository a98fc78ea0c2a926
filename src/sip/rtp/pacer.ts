/**
 * One clock for every RTP stream in the process: a single timer on a 20 ms grid (from
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

export function createPacer(periodMs = 20): Pacer {
  const origin = performance.now();
  const senders = new Set<(now: number) => void>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  const gridAfter = (t: number) => origin + Math.floor((t - origin) / periodMs + 1) * periodMs;
  const schedule = () => {
    const now = performance.now();
    timer = setTimeout(tick, gridAfter(now) - now);
  };
  const tick = () => {
    const now = performance.now();
    for (const s of senders) s(now);
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

/** The process-wide pacer every call's stream uses. */
export const sharedPacer = createPacer();
