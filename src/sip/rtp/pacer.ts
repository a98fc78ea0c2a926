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
  /**
   * A tick fired more than half a period after its grid instant (LATE_AFTER_PERIODS). Its
   * streams still send everything due, so nothing is lost, but the phone gets those packets
   * bunched: past half a packet's time its jitter buffer starts to notice. Counted for
   * /metrics (voice_alert_rtp_late_ticks_total).
   */
  onLate?: (lateMs: number) => void;
  /** The monotonic clock (performance.now); tests shift it to make a tick late. */
  now?: () => number;
}

export const LATE_AFTER_PERIODS = 0.5;

const sleepCell = () => new Int32Array(new SharedArrayBuffer(4));

export function createPacer(o: PacerOptions = {}): Pacer {
  const periodMs = o.periodMs ?? 20;
  const blockMs = o.blockLastMs ?? 0;
  const cell = blockMs > 0 ? sleepCell() : null;
  const clock = o.now ?? (() => performance.now());
  const origin = clock();
  const senders = new Set<(now: number) => void>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let due = 0;
  const gridAfter = (t: number) => origin + Math.floor((t - origin) / periodMs + 1) * periodMs;
  const schedule = () => {
    const now = clock();
    due = gridAfter(now);
    timer = setTimeout(tick, Math.max(0, due - now - blockMs));
  };
  const tick = () => {
    let now = clock();
    // A wait may end a hair early (its clock rounds): wait again for the remainder.
    while (cell && due - now > 0) {
      Atomics.wait(cell, 0, 0, due - now);
      now = clock();
    }
    if (now - due > periodMs * LATE_AFTER_PERIODS) o.onLate?.(now - due);
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
    nextTick: () => gridAfter(clock()),
    add(send) {
      senders.add(send);
      if (!timer) schedule();
      return () => senders.delete(send);
    },
  };
}
