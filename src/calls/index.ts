import type { Clock } from '../clock';
import type { Config } from '../config';
import type { LoopSpec } from '../engine';
import type { Logger } from '../log';
import type { CallOutcome } from '../call-model';
import { sipTrunks } from '../config/sections/sip';
import type { AmdRequest, DialRequest, InboundDesk, InboundSipText, MediaCounts } from '../sip';
import type { Store } from '../store';
import type { CallAudioSource } from '../call-model';
import { createDialer, type Dialer } from './dialer';
import { createNoTrunkSweeper } from './expire-stale';
import { aggregateStatus, createTrunkSet, type TextOutcome, type TrunkEntryStatus, type TrunkProbeStatus, type TrunkStatus } from '../trunks';

export { createDialer, type Dialer } from './dialer';
export { decide, classify } from './retry-policy';
export { NO_TRUNK_REASON, NO_TRUNK_WARNING } from './expire-stale';
export { isTrunkFailure, trunkOrder, checkTrunkStates, type TrunkProbeStatus, type TrunkState, type TrunkEntryStatus, type TrunkStatus } from '../trunks';
export { transition, CALL_STATES, FINAL_STATES, isFinal, type CallState } from '../call-model';

/**
 * Telephony as the appliance sees it: the trunk plus the dialer; or, when sip.server is
 * empty, a sweep that expires queued calls older than calls.max_age_s (calls are accepted,
 * wait with last_reason "no SIP trunk configured", and a trunk configured later never
 * dials a stale backlog).
 */
export interface Telephony {
  /**
   * Its engine loops, in stop order. With trunks: `dialer` (unanswered calls go back to the
   * queue, answered ones finish), `call-leases`, each trunk's `trunk-probe:NAME`, then `trunks` (its begin starts the trunks,
   * then the dialer; a trunk that fails to start is logged, calls stay queued; its end closes
   * them). Without: the no-trunk sweep and marks.
   */
  loops: LoopSpec[];
  /** Intake's onQueued hook: the dialer looks now. */
  wake(): void;
  /** For people (the panel) and /healthz: is the trunk there, up, registered, answering OPTIONS. */
  status(): TrunkStatus;
  /** RTP packets sent and late pacer ticks since start; zero without a trunk. */
  mediaCounts(): MediaCounts;
  /**
   * False when sip.server is empty: intake answers then carry `warning: NO_TRUNK_WARNING`.
   * Fixed for the life of the process (the config is read at start).
   */
  trunkConfigured(): boolean;
  /**
   * A check other than OPTIONS (the voice-path self-test) found the named trunk working or
   * not: it is marked up or down (logged, counted, `trunk.up`/`trunk.down` callbacks); down
   * holds until a later mark says up (probes do not lift it). False for an unknown trunk.
   */
  markTrunk(name: string, up: boolean, reason: string): Promise<boolean>;
  /** One attempt through the named trunk only, no failover (the self-test's call). */
  dialOn(name: string, request: DialRequest): Promise<CallOutcome>;
  /** A text as SIP MESSAGE through the trunks in order (`[sms] via = "sip"`); never rejects. */
  sendText(number: string, text: string): Promise<TextOutcome>;
}

/** The probe part of a status before any probe ran (and with no trunk at all). */
export const noProbe = (): TrunkProbeStatus => ({ reachable: null, lastProbeAt: null, lastProbeResult: null, lastProbeRttMs: null, changes: { down: 0, up: 0 } });

export interface TelephonyDeps {
  store: Store;
  clock: Clock;
  log: Logger;
  /** What calls play: speech built once in appliance.ts (tests inject a known signal). */
  audio: CallAudioSource;
  /** The voice desk (docs/telephony.md "Voice desk"): calls to the appliance; absent: refused. */
  inbound?: InboundDesk;
  /** Texts the PBX delivers as SIP MESSAGE (docs/second-path.md "Texts through the PBX"). */
  onText?: (text: InboundSipText) => void;
  /**
   * The second path can carry a text without the trunks (a GSM modem ready and registered):
   * then a person's call no trunk can place is texted instead (docs/second-path.md "When no
   * trunk is up"). Absent or false: such calls are dialled through the down trunks as ever.
   */
  textPathUp?: () => boolean;
}

export function createTelephony(config: Config, deps: TelephonyDeps): Telephony {
  const trunks = sipTrunks(config.sip);
  if (trunks.length === 0) {
    // On the appliance's clock, every 30 s: a call expires at most 30 s after max_age_s.
    const sweeper = createNoTrunkSweeper({
      store: deps.store,
      clock: deps.clock,
      log: deps.log,
      maxAgeS: config.calls.max_age_s,
      timeZone: config.credit.timezone,
    });
    const [sweep, mark] = sweeper.loops;
    const warn = async () =>
      void deps.log.warn(
        { maxAgeS: config.calls.max_age_s },
        'sip.server is not set: calls are accepted and stay queued until a SIP trunk is configured; those older than calls.max_age_s expire',
      );
    return {
      loops: [{ ...sweep, begin: warn }, mark],
      wake: () => sweeper.wake(),
      status: () => ({ state: 'not_configured', registered: null, lastError: null, ...noProbe() }),
      mediaCounts: () => ({ packetsSent: 0, lateTicks: 0 }),
      trunkConfigured: () => false,
      markTrunk: async () => false,
      dialOn: async (name) => ({ code: 'NETWORK', status: null, reason: `trunk ${name} is not configured` }),
      sendText: async () => ({ ok: false, reason: 'no SIP trunk configured', failures: [] }),
    };
  }
  const set = createTrunkSet(config.sip, trunks, deps);
  // An attempt may go through every trunk in turn, each silent one for up to Timer B (64·T1)
  // or the ring timeout: the watchdog allows for that on top of one call's length.
  const perExtraTrunkMs = 64 * config.sip.t1_ms + config.calls.ring_timeout_s * 1000;
  const dialer: Dialer = createDialer({
    store: deps.store,
    dial: (r) => set.dial(r),
    audio: deps.audio,
    clock: deps.clock,
    log: deps.log,
    calls: config.calls,
    timeZone: config.credit.timezone,
    amd: amdRequest(config.amd),
    ...(deps.textPathUp ? { textInstead: (n: string) => set.noneUpFor(n) && deps.textPathUp!() } : {}),
    leaseMs: config.calls.lease_s * 1000,
    shutdownGraceMs: config.calls.shutdown_grace_s * 1000,
    pollMs: 1000,
    attemptLimitMs: (config.calls.ring_timeout_s + config.calls.max_call_s + 60) * 1000 + (trunks.length - 1) * perExtraTrunkMs,
  });
  let stopping = false;
  let dialing = false;
  // Calls wait in the queue until a trunk is up; they are never dropped.
  set.onStarted(() => {
    if (stopping || dialing) return;
    dialing = true;
    dialer.start();
  });
  const [dialerLoop, leaseLoop] = dialer.loops;
  return {
    loops: [
      {
        ...dialerLoop,
        halt: () => {
          stopping = true;
          dialerLoop.halt?.();
        },
        end: async () => {
          if (dialing) await dialerLoop.end?.();
        },
      },
      leaseLoop,
      // Probes stop before the trunks close: a probe cut short by its socket closing says nothing.
      ...set.probeLoops(),
      // No tick: it starts the trunks with the others and closes them after the dialer's last call.
      { name: 'trunks', everyMs: 0, tick: async () => undefined, begin: async () => set.start(), end: () => set.stop() },
    ],
    wake: () => {
      if (dialing) dialer.wake();
    },
    trunkConfigured: () => true,
    mediaCounts: () => set.mediaCounts(),
    status: () => aggregateStatus(set.statuses(), stopping),
    markTrunk: (name, up, reason) => set.mark(name, up, reason),
    dialOn: (name, request) => set.dialOn(name, request),
    sendText: (number, text) => set.sendText(number, text),
  };
}

/** `[amd]` as the dial takes it: the detector's timings in its own names, or null when off. */
export function amdRequest(c: Config['amd']): AmdRequest | null {
  if (!c.enabled) return null;
  return {
    onMachine: c.on_machine,
    timings: {
      initialSilenceMs: c.initial_silence_ms,
      greetingMs: c.greeting_ms,
      afterGreetingSilenceMs: c.after_greeting_silence_ms,
      totalAnalysisMs: c.total_analysis_ms,
      minWordMs: c.min_word_ms,
      betweenWordsSilenceMs: c.between_words_silence_ms,
      maxWords: c.max_words,
    },
  };
}
