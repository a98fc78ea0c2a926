import type { Clock } from './clock';
import type { Config } from './config';
import type { RateLimiter } from './http';
import type { LoopSpec } from './engine';
import { describeError, type Logger } from './log';
import { pruneHistory, type Store } from './store';

export interface Sweeper extends LoopSpec {
  /** One round: idle rate-limit entries, expired idempotency keys and signatures, API history past its bounds. */
  tick(): Promise<void>;
  /** A prune in progress ends after its current batch. */
  halt(): void;
  /** Resolves once a prune in progress ended. */
  end(): Promise<void>;
}

export interface SweeperDeps {
  store: Store;
  rateLimiter: RateLimiter;
  clock: Clock;
  log: Logger;
  config: Config;
}

/**
 * The appliance's background housekeeping, every `everyMs` (60 s). History pruning may
 * take longer than a round when a large backlog goes (it deletes in batches, yielding to
 * intake between them): a round never starts a second prune while one runs.
 */
export function createSweeper(deps: SweeperDeps, everyMs = 60_000): Sweeper {
  const { store, rateLimiter, clock, log, config } = deps;
  let pruning: Promise<void> | null = null;
  let stopped = false;
  const sweep = async () => {
    rateLimiter.sweep();
    const idempotency = store
      .transaction(async (tx) => {
        await tx.idempotency.prune(clock());
        await tx.signedRequests.prune(clock());
      })
      .catch((e) => log.error({ error: describeError(e) }, 'prune failed'));
    if (!pruning) {
      const { history_days: days, history_max_rows: maxRows } = config.store;
      pruning = pruneHistory(store, { nowMs: clock(), days, maxRows, keepGoing: () => !stopped })
        .then((n) => void (n > 0 && log.info({ deleted: n }, 'api history pruned')))
        .catch((e) => log.error({ error: describeError(e) }, 'api history prune failed'))
        .finally(() => (pruning = null));
    }
    await Promise.all([idempotency, pruning]);
  };
  return {
    name: 'sweeper',
    everyMs,
    // The first round a minute after the start, as before: a start does not wait on a prune.
    waitFirst: true,
    tick: sweep,
    halt: () => void (stopped = true),
    async end() {
      stopped = true;
      await pruning;
    },
  };
}
