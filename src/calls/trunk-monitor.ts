import { emitTrunkEvent, type TrunkEventType } from '../callbacks';
import type { Clock } from '../clock';
import { describeError, type Logger } from '../log';
import { describeProbe, type ProbeResult } from '../sip';
import type { Store } from '../store';
import { until } from '../until';

/**
 * Is the PBX there? One SIP OPTIONS every sip.options_interval_s (README "Operations"):
 * any final answer, 401/407 included, means reachable; no answer within Timer F or a
 * transport error means down.
 *
 *            answered                      no answer
 *   unknown ─────────▶ up ◀───────────┐  ┌──────── unknown
 *                      │  answered    │  ▼
 *                      └──────────▶ down   (no answer)
 *
 * Every edge is one log line. unknown → up is the trunk coming up as expected: logged,
 * nothing else. Every other edge (… → down, down → up) is counted and written as a
 * callback event (`trunk.down` / `trunk.up`) to every account with a callback_url, in the
 * same transaction. Probes never overlap: the next is timed from the end of the last.
 * With sip.options_interval_s = 0 nothing is sent and the state stays `unknown`.
 */
export type Reachability = 'unknown' | 'up' | 'down';

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
  /** First probe now, then every interval, until stop(). */
  start(): void;
  /** Ends the schedule; waits for a probe in flight for at most 2 s (a silent PBX takes 64·T1). */
  stop(): Promise<void>;
  status(): TrunkProbeStatus;
}

export interface TrunkMonitorDeps {
  probe: () => Promise<ProbeResult>;
  /** 0: never probe. */
  intervalMs: number;
  /** sip.server, named in logs and events. */
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
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;

  const record = async (result: ProbeResult) => {
    // A probe cut short by stop() (the transport closing under it) says nothing about the PBX.
    if (stopped) return;
    const at = deps.clock();
    last = { at, result };
    const next: Reachability = result.answered ? 'up' : 'down';
    if (next === state) return;
    const from = state;
    state = next;
    const fields = { server: deps.server, result: describeProbe(result), rttMs: Math.round(result.rttMs) };
    if (next === 'down') log.warn({ ...fields, from }, 'sip trunk down: OPTIONS unanswered');
    else log.info({ ...fields, from }, 'sip trunk up: OPTIONS answered');
    if (from === 'unknown' && next === 'up') return;
    changes[next]++;
    const type: TrunkEventType = next === 'down' ? 'trunk.down' : 'trunk.up';
    try {
      await deps.store.transaction((tx) => emitTrunkEvent(tx, type, { server: deps.server, reachable: next === 'up', result: fields.result }, at));
    } catch (e) {
      log.error({ error: describeError(e), type }, 'trunk event not written');
    }
  };

  const tick = () => {
    timer = null;
    running = deps
      .probe()
      .then(record)
      .catch((e) => log.error({ error: describeError(e) }, 'trunk probe failed'))
      .finally(() => {
        running = null;
        if (!stopped) timer = setTimeout(tick, deps.intervalMs);
      });
  };

  return {
    start() {
      if (deps.intervalMs === 0 || stopped || timer || running) return;
      tick();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await until(running ?? undefined, 2000);
    },
    status: () => ({
      reachable: state === 'unknown' ? null : state === 'up',
      lastProbeAt: last?.at ?? null,
      lastProbeResult: last ? describeProbe(last.result) : null,
      lastProbeRttMs: last?.result.answered ? Math.round(last.result.rttMs) : null,
      changes: { ...changes },
    }),
  };
}
