import type { Clock } from '../clock';

/**
 * Per-address sliding window: at most `perMinute` accepted requests in any 60 s.
 * Each address keeps a ring of its last `perMinute` request times; the next request
 * is allowed when the oldest of them is more than a minute old. Refused requests do
 * not count, so a client that backs off gets in as soon as Retry-After says.
 */
export interface RateLimiter {
  /** null when allowed (and counted); else the seconds to wait. */
  take(address: string): number | null;
  /** Drops addresses idle for a minute; called periodically. */
  sweep(): void;
}

const WINDOW_MS = 60_000;

export function createRateLimiter(perMinute: number, clock: Clock): RateLimiter {
  const rings = new Map<string, { times: Float64Array; next: number; last: number }>();
  return {
    take(address) {
      if (perMinute <= 0) return null;
      const now = clock();
      let r = rings.get(address);
      if (!r) {
        r = { times: new Float64Array(perMinute).fill(-Infinity), next: 0, last: now };
        rings.set(address, r);
      }
      const oldest = r.times[r.next]!; // the slot about to be overwritten holds the oldest time
      if (now - oldest < WINDOW_MS) return Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000));
      r.times[r.next] = now;
      r.next = (r.next + 1) % perMinute;
      r.last = now;
      return null;
    },
    sweep() {
      const now = clock();
      for (const [a, r] of rings) if (now - r.last >= WINDOW_MS) rings.delete(a);
    },
  };
}
