import type { CallOutcome } from '../call-model';
import { emitSelfTestEvent } from '../callbacks';
import type { Clock } from '../clock';
import type { SelfTestConfig } from '../config/sections/self-test';
import type { Logger } from '../log';
import type { DialRequest, MediaReport } from '../sip';
import type { SelfTestRecord, Store } from '../store';
import { selfTestSignal, signalFrames } from './signal';
import { judge } from './verdict';

export interface SelfTestRunDeps {
  store: Store;
  clock: Clock;
  log: Logger;
  /** One attempt through the named trunk only, no failover (Telephony.dialOn, or the CLI's own telephone). */
  dialOn(trunk: string, request: DialRequest): Promise<CallOutcome>;
}

export interface SelfTestRunOptions {
  trunk: string;
  config: Pick<SelfTestConfig, 'number' | 'duration_s' | 'expect'>;
  ringTimeoutS: number;
  origin: 'schedule' | 'cli';
  /** A stopping appliance: CANCEL before the answer, BYE after it; nothing is stored then. */
  signal?: AbortSignal;
}

/** Room after the signal for the BYE and the echo's last frames, within calls.max_call_s's bound. */
const AFTER_SIGNAL_MS = 5000;

/**
 * One self-test call (docs/telephony.md "Voice-path self-test"): dials `number` through one trunk,
 * plays the test signal (signal.ts) for duration_s once answered, judges the answer, our RTP
 * and the echo (verdict.ts), and stores the result with its callbacks in one transaction:
 * `selftest.failed` on every failure, `selftest.passed` when the trunk's previous self-test
 * had failed. The call belongs to no account, is not queued and costs no credit. Marking the
 * trunk is the caller's (scheduler.ts), after this resolves. Null when `signal` stopped it.
 */
export async function runSelfTest(d: SelfTestRunDeps, o: SelfTestRunOptions): Promise<SelfTestRecord | null> {
  const startedAt = d.clock();
  const durationMs = o.config.duration_s * 1000;
  const audio = selfTestSignal(durationMs);
  let report: MediaReport | null = null;
  const outcome: CallOutcome = await d
    .dialOn(o.trunk, {
      number: o.config.number,
      audio: async () => audio,
      acknowledgedAudio: async () => ({ pcmu: new Uint8Array(0), pcma: new Uint8Array(0), durationMs: 0 }),
      ringTimeoutMs: o.ringTimeoutS * 1000,
      answerDelayMs: 0,
      maxCallMs: durationMs + AFTER_SIGNAL_MS,
      progress: { ringing: () => undefined, answered: () => undefined, digit: () => undefined },
      signal: o.signal,
      hangUpSignal: o.signal,
      mediaCheck: { echo: o.config.expect === 'echo', onReport: (r) => (report = r) },
    })
    .catch((e: unknown): CallOutcome => ({ code: 'NETWORK', status: null, reason: e instanceof Error ? e.message : String(e) }));
  if (o.signal?.aborted) return null;
  const verdict = judge(outcome, report, o.config.expect, signalFrames(durationMs));
  const finishedAt = d.clock();
  const record = await d.store.transaction(async (tx) => {
    const previous = await tx.selfTests.latest(o.trunk);
    const r = await tx.selfTests.add({
      trunk: o.trunk,
      number: o.config.number,
      expect: o.config.expect,
      ok: verdict.ok,
      reason: verdict.reason,
      echoRatio: verdict.echoRatio,
      origin: o.origin,
      startedAt,
      finishedAt,
    });
    if (!r.ok) await emitSelfTestEvent(tx, 'selftest.failed', r, finishedAt);
    else if (previous && !previous.ok) await emitSelfTestEvent(tx, 'selftest.passed', r, finishedAt);
    return r;
  });
  const fields = { trunk: o.trunk, selfTest: record.id, reason: record.reason, echoRatio: record.echoRatio, origin: o.origin };
  if (record.ok) d.log.info(fields, 'self-test passed');
  else d.log.warn(fields, 'self-test failed');
  return record;
}
