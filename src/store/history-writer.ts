import type { HistoryEntry } from './history';
import { DatabaseUnavailableError } from './sql/unavailable';
import type { Tx } from './tables';

/** Store.background's shape: a write nobody waits for, batched with others. */
type Background = (work: (tx: Tx) => Promise<void>, onError: (e: unknown) => void) => void;

/**
 * The API history's rows, written in the background (nobody waits for them: docs/operations.md "API
 * history"). What arrives while the store's previous batch of background writes commits is
 * written in the next (history.recordAll): on PostgreSQL as ONE insert, not a statement a
 * request, since there each statement costs both sides CPU (BENCHMARKS.md "Bundles in a few
 * statements, a plain request in one statement, the history in one insert").
 *
 * The entries are taken when the batch first runs and kept for the runs after it (a batch
 * may run again as a whole: sql/database.ts). When the batch fails, each of its entries is
 * written alone, so only a bad one is reported.
 */
export function createHistoryWriter(background: Background): (entry: HistoryEntry, onError: (e: unknown) => void) => void {
  let waiting: { entry: HistoryEntry; onError: (e: unknown) => void }[] = [];
  let scheduled = false;
  const schedule = () => {
    scheduled = true;
    let taken: typeof waiting | null = null;
    const take = () => {
      if (!taken) {
        taken = waiting;
        waiting = [];
        scheduled = false;
      }
      return taken;
    };
    background(
      (tx) => tx.history.recordAll(take().map((w) => w.entry)),
      (e) => {
        // The database away: each entry is told (and logged). Else one entry made the insert
        // fail: each is written alone, so only that one is lost.
        if (e instanceof DatabaseUnavailableError) for (const w of take()) w.onError(e);
        else for (const w of take()) background((tx) => tx.history.record(w.entry), w.onError);
      },
    );
  };
  return (entry, onError) => {
    waiting.push({ entry, onError });
    if (!scheduled) schedule();
  };
}
