import type { Clock } from '../clock';
import { sipTrunks, type Config } from '../config';
import type { SelfTestRecord, Store } from '../store';

export type RunRequest = { ok: true } | { ok: false; code: 'self_test_off' | 'unknown_trunk' };

/**
 * The self-test as the panel sees it (docs/telephony.md "Voice-path self-test"): each trunk's
 * newest result, and "run now". A run asked for is a row made due (store requestRun): the
 * server's scheduler (scheduler.ts) claims it under its lease and runs it on the trunk, as a
 * scheduled run, so one appliance runs it once whoever asked.
 */
export interface SelfTestRequests {
  /** The trunks a run may be asked for (self_test.trunk, else every trunk); empty: self-tests are off (no self_test.number, or no trunk). */
  trunks(): string[];
  /** Each trunk's newest result. */
  latest(): Promise<SelfTestRecord[]>;
  requestRun(trunk: string): Promise<RunRequest>;
}

export function createSelfTestRequests({ store, clock, config }: { store: Store; clock: Clock; config: Config }): SelfTestRequests {
  const all = sipTrunks(config.sip).map((t) => t.name);
  const tested = config.self_test.number === '' ? [] : config.self_test.trunk ? all.filter((n) => n === config.self_test.trunk) : all;
  return {
    trunks: () => tested,
    latest: () => store.selfTests.latestPerTrunk(),
    async requestRun(trunk) {
      if (tested.length === 0) return { ok: false, code: 'self_test_off' };
      if (!tested.includes(trunk)) return { ok: false, code: 'unknown_trunk' };
      await store.transaction((tx) => tx.selfTests.requestRun(trunk, clock()));
      return { ok: true };
    },
  };
}
