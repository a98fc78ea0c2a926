import type { Store } from '../store';

/** What the scrape-time gauges read from the database: one read of each, shared by every gauge of a scrape. */
export interface StoreReadings {
  calls: Record<string, number>;
  alerts: Record<string, number>;
  queue: { queued: number; oldestCreatedAt: number | null };
  outbox: { pending: number; oldestCreatedAt: number | null };
}

/**
 * The store's numbers for /metrics, read at scrape time but never waited for long: a
 * database that is slow, frozen or restarting must not hold the scrape (docs/high-availability.md
 * "High availability": /metrics answers within 100 ms). A scrape waits at most `waitMs` for a
 * fresh read; otherwise it gets the last one, and `fresh` says so (the gauge
 * voice_alert_database_up). One read at a time: scrapes during a long one join it, and so do
 * the gauges of one scrape (prom-client collects them all at once); a read that finished in
 * the last `reuseMs` is served as it is.
 */
export interface StoreReader {
  current(): Promise<{ readings: StoreReadings | null; fresh: boolean }>;
}

export function createStoreReader(store: Store, waitMs = 50, reuseMs = 20): StoreReader {
  let last: StoreReadings | null = null;
  let lastAt = -Infinity;
  let lastOk = false;
  let reading: Promise<void> | null = null;
  const read = async () => {
    try {
      const [calls, alerts, queue, outbox] = await Promise.all([
        store.opsCounts.callsByState(),
        store.opsCounts.alertsByState(),
        store.health.queue(),
        store.opsCounts.outboxBacklog(),
      ]);
      last = { calls, alerts, queue, outbox };
      lastOk = true;
    } catch {
      lastOk = false;
    } finally {
      lastAt = performance.now();
    }
  };
  return {
    async current() {
      if (!reading && performance.now() - lastAt > reuseMs) reading = read().finally(() => (reading = null));
      if (reading) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const waited = await Promise.race([
          reading.then(() => true),
          new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), waitMs))),
        ]);
        clearTimeout(timer);
        if (!waited) return { readings: last, fresh: false };
      }
      return { readings: last, fresh: lastOk };
    },
  };
}
