/** A held set of slots; release exactly once. */
export interface Slots {
  release(): void;
}

/**
 * Counts work in progress per key, in this process (the panel runs in one). `acquire`
 * takes a slot on every key or on none: a request over any limit is refused at once
 * rather than queued, so a burst costs the attacker, not the server.
 */
export function createInFlight() {
  const running = new Map<string, number>();
  return {
    acquire(wanted: { key: string; limit: number }[]): Slots | null {
      if (wanted.some((w) => (running.get(w.key) ?? 0) >= w.limit)) return null;
      for (const w of wanted) running.set(w.key, (running.get(w.key) ?? 0) + 1);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          for (const w of wanted) {
            const n = (running.get(w.key) ?? 1) - 1;
            if (n <= 0) running.delete(w.key);
            else running.set(w.key, n);
          }
        },
      };
    },
  };
}
