import { settleAlerts } from '../alerts';
import { transition } from '../call-model';
import type { Clock } from '../clock';
import type { LoopSpec } from '../engine';
import type { Logger } from '../log';
import type { Store } from '../store';

/** What a queued call's last_reason says while sip.server is empty. */
export const NO_TRUNK_REASON = 'no SIP trunk configured';
/** The extra `warning` field of an intake answer while sip.server is empty (docs/operations.md "No trunk yet"). */
export const NO_TRUNK_WARNING = 'No SIP trunk configured: calls wait';

export interface NoTrunkSweepDeps {
  store: Store;
  clock: Clock;
  log: Logger;
  /** calls.max_age_s */
  maxAgeS: number;
  /** credit.timezone, for the alert lifecycle. */
  timeZone: string;
}

/** Calls expired per transaction, so one sweep of a huge backlog never holds the writer long. */
const BATCH = 500;

/**
 * With no trunk nobody claims calls, so the claim-time expiry (run-claimed-call.ts) never
 * runs: this does it instead. Every queued call older than calls.max_age_s moves to
 * `expired` through the call model's guarded edge, its alert settles in the same
 * transaction, so a trunk configured later never dials a stale backlog (docs/operations.md
 * "No trunk yet"). The sweeper then marks why the others wait. Returns the ids expired.
 */
export async function sweepWithoutTrunk(d: NoTrunkSweepDeps): Promise<string[]> {
  const expired: string[] = [];
  const reason = `not placed within calls.max_age_s (${d.maxAgeS} s): ${NO_TRUNK_REASON}`;
  for (;;) {
    const batch = await d.store.transaction(async (tx) => {
      const now = d.clock();
      const stale = await tx.calls.queuedBefore(now - d.maxAgeS * 1000, BATCH);
      for (const call of stale) transition(call.state, 'expired');
      const held = stale.map((c) => ({ id: c.id, attempt: c.attempts }));
      const moved = await tx.calls.moveAll(held, { from: 'queued', to: 'expired', at: now, reason, finished: true });
      const alertIds = [...new Set(stale.map((c) => c.alertId).filter((a): a is string => a !== null))];
      await settleAlerts({ store: tx, timeZone: d.timeZone }, alertIds, now);
      // A batch where nothing moved would come back unchanged: stop rather than spin.
      return { moved, full: stale.length === BATCH && moved.length > 0 };
    });
    expired.push(...batch.moved);
    if (!batch.full) break;
  }
  if (expired.length > 0) d.log.warn({ expired: expired.length, maxAgeS: d.maxAgeS }, 'queued calls expired: no SIP trunk configured');
  return expired;
}

/**
 * Says why queued calls wait, looking only at calls inserted since the last time (the
 * cursor), so marking stays cheap with a large backlog under load.
 */
export function createWaitingMarker(store: Store): () => Promise<void> {
  let cursor = 0;
  return async () => {
    cursor = await store.transaction((tx) => tx.calls.noteWaiting(NO_TRUNK_REASON, cursor));
  };
}

export interface NoTrunkSweeper {
  /**
   * Two engine loops: `no-trunk-sweep` runs sweepWithoutTrunk every `intervalMs` (default
   * 30 s), then marks; `no-trunk-mark` marks newly queued calls every `markDelayMs` (default
   * 1 s) when some were queued since: a mark per wake cost a quarter of the ingest
   * throughput under load (an extra write in every group commit), one a second costs nothing
   * measurable. Its end marks the last ones before the database closes.
   */
  loops: [LoopSpec, LoopSpec];
  /** New calls were queued: say why they wait within `markDelayMs`. */
  wake(): void;
}

export function createNoTrunkSweeper(d: NoTrunkSweepDeps, intervalMs = 30_000, markDelayMs = 1000): NoTrunkSweeper {
  const mark = createWaitingMarker(d.store);
  let queued = false;
  const markQueued = async () => {
    if (!queued) return;
    queued = false;
    await mark();
  };
  return {
    loops: [
      { name: 'no-trunk-sweep', everyMs: intervalMs, tick: () => sweepWithoutTrunk(d).then(mark) },
      // Calls queued in the last second still get their reason before the database closes.
      { name: 'no-trunk-mark', everyMs: markDelayMs, tick: markQueued, end: markQueued },
    ],
    wake: () => void (queued = true),
  };
}
