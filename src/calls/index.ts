import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Logger } from '../log';
import { createTelephone, type MediaCounts, type Telephone } from '../sip';
import type { Store } from '../store';
import type { CallAudioSource } from '../call-model';
import { createDialer, type Dialer } from './dialer';
import { createNoTrunkSweeper } from './expire-stale';
import { createTrunkMonitor, type TrunkProbeStatus } from './trunk-monitor';

export { createDialer, type Dialer } from './dialer';
export { decide, classify } from './retry-policy';
export { NO_TRUNK_REASON, NO_TRUNK_WARNING } from './expire-stale';
export type { TrunkProbeStatus } from './trunk-monitor';
export { transition, CALL_STATES, FINAL_STATES, isFinal, type CallState } from '../call-model';

/**
 * Telephony as the appliance sees it: the trunk plus the dialer; or, when sip.server is
 * empty, a sweep that expires queued calls older than calls.max_age_s (calls are accepted,
 * wait with last_reason "no SIP trunk configured", and a trunk configured later never
 * dials a stale backlog).
 */
export interface Telephony {
  /** Starts the trunk, then the dialer; a trunk that fails to start is logged, calls stay queued. */
  start(): void;
  /** Intake's onQueued hook. */
  wake(): void;
  /** Unanswered calls go back to the queue, answered ones finish; then the trunk closes. */
  stop(): Promise<void>;
  /** For people (the panel) and /healthz: is the trunk there, up, registered, answering OPTIONS. */
  status(): TrunkStatus;
  /** RTP packets sent and late pacer ticks since start; zero without a trunk. */
  mediaCounts(): MediaCounts;
  /**
   * False when sip.server is empty: intake answers then carry `warning: NO_TRUNK_WARNING`.
   * Fixed for the life of the process (the config is read at start).
   */
  trunkConfigured(): boolean;
}

export interface TrunkStatus extends TrunkProbeStatus {
  /** not_configured: sip.server is empty; starting: not up yet (or being retried after a failure). */
  state: 'not_configured' | 'starting' | 'up' | 'stopped';
  /** null for an IP trunk or when not up. */
  registered: boolean | null;
  /** Why the last start failed, while it is being retried; once up, why the last REGISTER failed. */
  lastError: string | null;
}

/** The probe part of a status before any probe ran (and with no trunk at all). */
export const noProbe = (): TrunkProbeStatus => ({ reachable: null, lastProbeAt: null, lastProbeResult: null, lastProbeRttMs: null, changes: { down: 0, up: 0 } });

export interface TelephonyDeps {
  store: Store;
  clock: Clock;
  log: Logger;
  /** What calls play: speech built once in appliance.ts (tests inject a known signal). */
  audio: CallAudioSource;
}

export function createTelephony(config: Config, deps: TelephonyDeps): Telephony {
  if (!config.sip.server) {
    // On the appliance's clock, every 30 s: a call expires at most 30 s after max_age_s.
    const sweeper = createNoTrunkSweeper({
      store: deps.store,
      clock: deps.clock,
      log: deps.log,
      maxAgeS: config.calls.max_age_s,
      timeZone: config.credit.timezone,
    });
    return {
      start: () => {
        deps.log.warn(
          { maxAgeS: config.calls.max_age_s },
          'sip.server is not set: calls are accepted and stay queued until a SIP trunk is configured; those older than calls.max_age_s expire',
        );
        sweeper.start();
      },
      wake: () => sweeper.wake(),
      stop: () => sweeper.stop(),
      status: () => ({ state: 'not_configured', registered: null, lastError: null, ...noProbe() }),
      mediaCounts: () => ({ packetsSent: 0, lateTicks: 0 }),
      trunkConfigured: () => false,
    };
  }
  const telephone: Telephone = createTelephone(config.sip, config.sip.silence_ms, { log: deps.log });
  const dialer: Dialer = createDialer({
    store: deps.store,
    dial: (r) => telephone.dial(r),
    audio: deps.audio,
    clock: deps.clock,
    log: deps.log,
    calls: config.calls,
    timeZone: config.credit.timezone,
    leaseMs: config.calls.lease_s * 1000,
    pollMs: 1000,
  });
  // Probing starts once the trunk is up: before that, status says `starting` anyway.
  const monitor = createTrunkMonitor({
    probe: () => telephone.probe(),
    intervalMs: config.sip.options_interval_s * 1000,
    server: config.sip.server,
    store: deps.store,
    clock: deps.clock,
    log: deps.log,
  });
  let up = false;
  let stopping = false;
  let inFlight: Promise<void> | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let lastError: string | null = null;
  // A trunk that cannot start (port taken, no route) is tried again until it can: calls
  // wait in the queue meanwhile, they are never dropped.
  const attempt = (delayS: number) => {
    inFlight = telephone.start().then(
      () => {
        if (stopping) return;
        up = true;
        lastError = null;
        dialer.start();
        monitor.start();
      },
      (e) => {
        lastError = e instanceof Error ? e.message : String(e);
        deps.log.error({ err: e, server: config.sip.server, retryInS: delayS }, 'sip trunk failed to start: calls stay queued');
        if (!stopping) retry = setTimeout(() => attempt(Math.min(delayS * 2, 60)), delayS * 1000);
      },
    );
  };
  return {
    start: () => attempt(5),
    wake: () => {
      if (up) dialer.wake();
    },
    trunkConfigured: () => true,
    mediaCounts: () => telephone.mediaCounts(),
    status: () => ({
      state: stopping ? 'stopped' : up ? 'up' : 'starting',
      registered: up && !stopping ? telephone.registered() : null,
      // A registrar's refusal (423 loop, 403, no answer) is shown while it lasts, never hidden behind "up".
      lastError: up && !stopping ? telephone.registrationError() : lastError,
      ...monitor.status(),
    }),
    async stop() {
      stopping = true;
      if (retry) clearTimeout(retry);
      await inFlight; // a start in progress finishes (bounded by Timer F) before we stop it
      await monitor.stop();
      if (up) await dialer.stop();
      await telephone.stop();
    },
  };
}
