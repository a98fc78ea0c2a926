import type { CallOutcome } from '../call-model';
import type { Clock } from '../clock';
import type { SelfTestConfig } from '../config/sections/self-test';
import { describeError, type Logger } from '../log';
import type { LoopSpec } from '../engine';
import type { DialRequest } from '../sip';
import { newLease, type SelfTestRecord, type Store } from '../store';
import { runSelfTest } from './run';

/** How often the scheduler looks: for due runs, and for results written elsewhere. */
export const LOOK_EVERY_MS = 2000;

/** With scheduled runs off (interval_s = 0), a run asked for from the panel is not due again by itself. */
const NOT_AGAIN_MS = 100 * 365 * 86_400_000;

export interface SelfTestSchedulerDeps {
  store: Store;
  clock: Clock;
  log: Logger;
  config: SelfTestConfig;
  /** Every trunk's name, in order (sip.trunks, or sip.name for `[sip]` alone). */
  trunks: string[];
  ringTimeoutS: number;
  dialOn(trunk: string, request: DialRequest): Promise<CallOutcome>;
  /** Telephony.markTrunk: down after a failed self-test, up after a passed one. */
  markTrunk(trunk: string, up: boolean, reason: string): Promise<boolean>;
  /** Whether the trunk's socket runs: a trunk still starting is not tested (its failure would be ours). */
  started(trunk: string): boolean;
  lookEveryMs?: number;
}

/**
 * The server's side of the voice-path self-test (docs/telephony.md "Voice-path self-test").
 *
 * Scheduled runs: each tested trunk (self_test.trunk, or every trunk) has a row in
 * self_test_schedule, first due spread over one interval (trunk i of n at i/n of it, so the
 * trunks take turns), then interval_s after each run ends. Every appliance looks every
 * LOOK_EVERY_MS; a due row is claimed under a lease by the lease clock (store self-tests.ts),
 * so exactly one appliance runs it; one appliance runs its claims one after another, never
 * two self-test calls at once. A crash leaves the lease to run out and the row still due.
 *
 * Results: every look also reads each trunk's newest result, whoever wrote it (this appliance,
 * another one, `voice-alert self-test run`), and marks the trunk on this appliance: down
 * after a failure, up after a pass. A trunk stays down after a failed self-test until a later
 * one passes (trunks/trunk-monitor.ts: an answered OPTIONS does not lift it). After a restart
 * the newest stored result applies again.
 */
export interface SelfTestScheduler extends LoopSpec {
  /** Writes the schedule rows (the engine's begin). */
  begin(): Promise<void>;
  /** One look: applies new results, runs what is due and claimable. */
  tick(): Promise<void>;
  /** Each trunk's newest result as this appliance knows it (voice_alert_self_test_ok). */
  results(): { trunk: string; ok: boolean }[];
  /** Hangs up a run in progress (nothing is stored for it). */
  halt(): void;
  /** Halts, and lets its leases go. */
  end(): Promise<void>;
}

export function createSelfTestScheduler(d: SelfTestSchedulerDeps): SelfTestScheduler {
  const log = d.log.child({ component: 'self-test' });
  const enabled = d.config.number !== '' && d.trunks.length > 0;
  const tested = d.config.trunk ? [d.config.trunk] : d.trunks;
  const intervalMs = d.config.interval_s * 1000;
  // The call may ring, play and hang up within the lease: a lease that ran out mid-call would
  // let another appliance place a second one.
  const lease = newLease((d.ringTimeoutS + d.config.duration_s + 60) * 1000);
  const applied = new Map<string, SelfTestRecord>();
  const stopping = new AbortController();

  const apply = async (r: SelfTestRecord) => {
    if (applied.get(r.trunk)?.id === r.id || !d.trunks.includes(r.trunk)) return;
    applied.set(r.trunk, r);
    await d.markTrunk(r.trunk, r.ok, `self-test ${r.ok ? 'passed' : 'failed'}: ${r.reason}`);
  };

  const look = async () => {
    for (const r of await d.store.selfTests.latestPerTrunk()) await apply(r);
    // Due: by the schedule, or asked for now from the panel (store requestRun).
    if (!(await d.store.selfTests.anyDue(d.clock()))) return;
    for (const trunk of tested) {
      if (stopping.signal.aborted) return;
      if (!d.started(trunk)) continue;
      const claimed = await d.store.transaction((tx) => tx.selfTests.claim(trunk, d.clock(), lease));
      if (!claimed) continue;
      log.info({ trunk, number: d.config.number, expect: d.config.expect }, 'self-test starting');
      const r = await runSelfTest(d, { trunk, config: d.config, ringTimeoutS: d.ringTimeoutS, origin: 'schedule', signal: stopping.signal });
      if (!r) return; // stopped: the row stays due, its lease is let go in stop()
      await apply(r);
      await d.store.transaction((tx) => tx.selfTests.finish(trunk, lease.owner, intervalMs === 0 ? NOT_AGAIN_MS : intervalMs, d.clock()));
    }
  };

  return {
    name: 'self-test',
    // Disabled (no number, no trunk): no look at all.
    everyMs: enabled ? (d.lookEveryMs ?? LOOK_EVERY_MS) : 0,
    tick: look,
    results: () => [...applied.values()].map((r) => ({ trunk: r.trunk, ok: r.ok })),
    async begin() {
      if (!enabled || intervalMs === 0) return;
      await d.store.transaction(async (tx) => {
        for (const [i, trunk] of tested.entries()) await tx.selfTests.schedule(trunk, Math.floor((i * intervalMs) / tested.length), d.clock());
      });
    },
    halt: () => stopping.abort(),
    async end() {
      stopping.abort();
      await d.store.transaction((tx) => tx.selfTests.releaseLeases(lease.owner)).catch((e) => log.warn({ error: describeError(e) }, 'letting go of self-test leases failed'));
    },
  };
}
