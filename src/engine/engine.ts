import { describeError, type Logger } from '../log';
import { metrics } from '../metrics';
import { createLoop, type Loop, type LoopSpec } from './loop';

export interface EngineOptions {
  log: Logger;
  /** Every loop, in start order. */
  loops: LoopSpec[];
  /**
   * Every loop's name once, in the order they stop (default: the list's order). The
   * appliance stops what makes work before what does it (escalation before the dialer), and
   * what the dialer's calls still need (their lease renewal) after it.
   */
  stopOrder?: string[];
  /** Each tick's seconds by loop (default: voice_alert_loop_tick_seconds on the metrics registry). */
  observe?: (loop: string, seconds: number) => void;
}

/**
 * Runs the appliance's background loops from one list (docs/operations.md "Operations"): each at its
 * interval, never two ticks of one loop at once, a failing tick logged once as
 * `{ loop, error }` 'loop tick failed' while the loop goes on, each tick timed on /metrics,
 * and a stop in a declared order that awaits the tick under way before a loop's `end`.
 * One-shot timers (a call's watchdog, ring timers, a trunk's restart back-off) are not loops
 * and stay with their owners.
 */
export interface Engine {
  /** Begins each loop in list order (awaiting its `begin`), then ticks it at its interval. */
  start(): Promise<void>;
  /** One tick of the named loop now, or the one under way; rejects when it fails (tests, callers that wait for it). */
  tick(name: string): Promise<unknown>;
  /** A tick of the named loop now, not at its next interval (new work was queued); a failure is logged. */
  wake(name: string): void;
  /** Stops the loops in stop order: each one's tick under way ends, then its `end` runs. */
  stop(): Promise<void>;
}

const observeTick = (loop: string, seconds: number) => metrics.loopTickSeconds.observe({ loop }, seconds);

export function createEngine(o: EngineOptions): Engine {
  const log = o.log.child({ component: 'engine' });
  const specs = new Map<string, LoopSpec>();
  for (const s of o.loops) {
    if (specs.has(s.name)) throw new Error(`two loops named ${s.name}`);
    specs.set(s.name, s);
  }
  const stopOrder = o.stopOrder ?? [...specs.keys()];
  const missing = [...specs.keys()].filter((n) => !stopOrder.includes(n));
  const unknown = stopOrder.filter((n) => !specs.has(n));
  if (missing.length > 0 || unknown.length > 0 || new Set(stopOrder).size !== stopOrder.length) {
    throw new Error(`the stop order must name every loop once (missing: ${missing.join(', ') || '-'}; unknown: ${unknown.join(', ') || '-'})`);
  }
  const loops = new Map<string, Loop>([...specs.values()].map((s) => [s.name, createLoop(s, log, o.observe ?? observeTick)]));
  const loop = (name: string) => {
    const l = loops.get(name);
    if (!l) throw new Error(`no loop named ${name}`);
    return l;
  };
  let stopping = false;

  return {
    async start() {
      for (const s of specs.values()) {
        await s.begin?.();
        if (stopping) return;
        loop(s.name).start();
      }
    },
    tick: (name) => loop(name).tick(),
    wake: (name) => void loop(name).tick().catch(() => undefined),
    async stop() {
      stopping = true;
      for (const name of stopOrder) {
        specs.get(name)!.halt?.();
        await loop(name).stop();
        await specs
          .get(name)!
          .end?.()
          .catch((e) => log.error({ loop: name, error: describeError(e) }, 'loop stop failed'));
      }
    },
  };
}
