import type { HistoryStore } from './history';

export interface RetentionOptions {
  nowMs: number;
  /** store.history_days */
  days: number;
  /** store.history_max_rows */
  maxRows: number;
  /** Rows per transaction: small enough that the intake's writes sharing it wait a few ms at most. */
  batchRows?: number;
  /** Asked between batches; false stops early (the appliance is stopping). */
  keepGoing?: () => boolean;
}

const DAY_MS = 86_400_000;

/**
 * Bounds api_history (issue 10 §1): rows older than `days` and rows beyond `maxRows` go,
 * a batch per transaction, yielding to the event loop between batches so requests keep
 * being answered while a large backlog is deleted. Returns the number of rows deleted.
 */
export async function pruneHistory(
  store: { transaction<T>(work: (tx: { history: HistoryStore }) => Promise<T>): Promise<T> },
  { nowMs, days, maxRows, batchRows = 2000, keepGoing = () => true }: RetentionOptions,
): Promise<number> {
  const limits = { before: nowMs - days * DAY_MS, maxRows, batchRows };
  let total = 0;
  for (;;) {
    const n = await store.transaction((tx) => tx.history.prune(limits));
    total += n;
    if (n < batchRows) return total;
    await new Promise((resolve) => setImmediate(resolve));
    if (!keepGoing()) return total;
  }
}
