import { emitTrunkEvent, type TrunkEventType } from '../callbacks';
import type { Clock } from '../clock';
import type { LoopSpec } from '../engine';
import { describeError, type Logger } from '../log';
import { describeProbe, type ProbeResult } from '../sip';
import type { Store } from '../store';
import { until } from '../until';

/**
 * Is the trunk there? One SIP OPTIONS every sip.options_interval_s (docs/operations.md
 * "Trunk monitoring", docs/telephony.md "SIP trunks: several, in order"): a final answer other than 408/503, 401/407 included,
 * means up; no answer within Timer F, a transport error, 408 or 503 (the PBX says it cannot
 * serve) means down. A self-test marks the trunk down or up (mark()): down holds until a
 * self-test passes, whatever the probes say meanwhile; an INVITE's
 * answer never changes the state.
 *
 *            answered                      no answer
 *   unknown ─────────▶ up ◀───────────┐  ┌──────── unknown
 *                      │  answered    │  ▼
 *                      └──────────▶ down   (no answer)
 *
 * Every edge is one log line. unknown → up is the trunk coming up as expected: logged,
 * nothing else. Every other edge (… → down, down → up) is counted and written as a
 * callback event (`trunk.down` / `trunk.up`) to every account with a callback_url, in the
 * same transaction. Probes never overlap: the next is timed from the end of the last (the
 * engine's loop `trunk-probe:NAME`, src/engine).
 * With sip.options_interval_s = 0 nothing is sent and the state stays `unknown` (shown as
 * `none`: tried in its turn) until a self-test marks it.
 */
export type Reachability = 'unknown' | 'up' | 'down';

/** A trunk's state as routing, /healthz, /metrics and the panel name it. */
export type TrunkState = 'up' | 'down' | 'none';

/** 408 and 503 are answers that say the trunk cannot serve now (RFC 3261 §21.4.9, §21.5.4). */
const DOWN_ANSWERS = new Set([408, 503]);

/** What one probe's result makes of the trunk. */
export const probeIsUp = (r: ProbeResult): boolean => r.answered && !DOWN_ANSWERS.has(r.code);

export interface TrunkProbeStatus {
  /** null until the first probe has an outcome. */
  reachable: boolean | null;
  /** When the last probe ended (ms since the epoch, the appliance's clock). */
  lastProbeAt: number | null;
  /** "200 OK", "407 Proxy Authentication Required", "timeout", "transport error: …". */
  lastProbeResult: string | null;
  /** Round trip of the last answered probe, ms; null when it went unanswered. */
  lastProbeRttMs: number | null;
  /** Edges counted so far (unknown → up is not a change). */
  changes: { down: number; up: number };
}

export interface TrunkMonitor {
  /**
   * Its engine loop: a probe every interval once started (none with an interval of 0); at
   * stop, a probe in flight is waited for at most 2 s (a silent PBX takes 64·T1).
   */
  loop: LoopSpec;
  /** The trunk is up: the first probe now (synchronously sent), then the loop's. */
  start(): void;
  /** No more probes; waits for a probe in flight for at most 2 s. */
  stop(): Promise<void>;
  status(): TrunkProbeStatus;
  /** up / down / none (never probed nor marked). */
  state(): TrunkState;
  /**
   * For a check other than the probe (the voice-path self-test): `up: false` marks the trunk
   * down until a later mark says up (a probe answering does not lift it); an edge is logged, counted and sent
   * as a callback like a probe's. `reason` is the result the event carries.
   */
  mark(up: boolean, reason: string): Promise<void>;
  /** A result learnt elsewhere, taken as a probe's: a registering trunk's REGISTER (docs/telephony.md). */
  observe(result: ProbeResult): Promise<void>;
}

export interface TrunkMonitorDeps {
  probe: () => Promise<ProbeResult>;
  /** 0: never probe. */
  intervalMs: number;
  /** The trunk's name and server, named in logs and events. */
  name?: string;
  server: string;
  store: Store;
  clock: Clock;
  log: Logger;
}

export function createTrunkMonitor(deps: TrunkMonitorDeps): TrunkMonitor {
  const log = deps.log.child({ component: 'trunk-monitor' });
  let state: Reachability = 'unknown';
  let last: { at: number; result: ProbeResult } | null = null;
  const changes = { down: 0, up: 0 };
  let running: Promise<void> | null = null;
  let started = false;
  let stopped = false;
  /** A failed self-test holds the trunk down until one passes (docs/telephony.md "Voice-path self-test"). */
  let checkFailed = false;

  const name = deps.name ?? 'default';
  const record = async (result: ProbeResult, method = 'OPTIONS') => {
    // A probe cut short by stop() (the transport closing under it) says nothing about the PBX.
    if (stopped) return;
    const at = deps.clock();
    last = { at, result };
    const up = probeIsUp(result);
    const what = !result.answered ? `${method} unanswered` : up ? `${method} answered` : `${method} answered ${result.code}`;
    // The PBX answering says nothing about the voice path a self-test found broken.
    if (up && checkFailed) return;
    await change(up ? 'up' : 'down', at, describeProbe(result), what, { rttMs: Math.round(result.rttMs) });
  };

  const change = async (next: Reachability, at: number, result: string, what: string, extra: Record<string, unknown> = {}) => {
    if (next === state) return;
    const from = state;
    state = next;
    const fields = { trunk: name, server: deps.server, result, ...extra };
    if (next === 'down') log.warn({ ...fields, from }, `sip trunk down: ${what}`);
    else log.info({ ...fields, from }, `sip trunk up: ${what}`);
    if (from === 'unknown' && next === 'up') return;
    changes[next as 'up' | 'down']++;
    const type: TrunkEventType = next === 'down' ? 'trunk.down' : 'trunk.up';
    try {
      await deps.store.transaction((tx) => emitTrunkEvent(tx, type, { name, server: deps.server, reachable: next === 'up', result }, at));
    } catch (e) {
      log.error({ error: describeError(e), type }, 'trunk event not written');
    }
  };

  /** One probe, or the one in flight; nothing before start() or after stop(). */
  const probeOnce = (): Promise<void> => {
    if (!started || stopped || deps.intervalMs === 0) return Promise.resolve();
    return (running ??= deps
      .probe()
      .then((r) => record(r))
      .catch((e) => log.error({ error: describeError(e) }, 'trunk probe failed'))
      .finally(() => (running = null)));
  };
  const halt = () => void (stopped = true);

  return {
    loop: { name: `trunk-probe:${name}`, everyMs: deps.intervalMs, tick: probeOnce, halt, stopWaitMs: 2000 },
    start() {
      started = true;
      void probeOnce();
    },
    async stop() {
      halt();
      await until(running ?? undefined, 2000);
    },
    status: () => ({
      reachable: state === 'unknown' ? null : state === 'up',
      lastProbeAt: last?.at ?? null,
      lastProbeResult: last ? describeProbe(last.result) : null,
      lastProbeRttMs: last?.result.answered ? Math.round(last.result.rttMs) : null,
      changes: { ...changes },
    }),
    state: () => (state === 'unknown' ? 'none' : state),
    observe: (result) => record(result, 'REGISTER'),
    async mark(up, reason) {
      if (stopped) return;
      checkFailed = !up;
      await change(up ? 'up' : 'down', deps.clock(), reason, up ? 'check passed' : 'check failed');
    },
  };
}
