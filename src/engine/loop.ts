import { describeError, type Logger } from '../log';
import { until } from '../until';

/**
 * One background loop as the engine runs it: a name, how often, what one tick does, and what
 * comes before the first tick and after the last. Every periodic look of the appliance (due
 * escalation steps, heartbeat deadlines, the dialer's poll, the outbox, housekeeping …) is one
 * of these, listed in appliance.ts; none keeps a timer of its own.
 */
export interface LoopSpec {
  /** Unique in one engine: the `loop` label of voice_alert_loop_tick_seconds and the `loop` field of its log lines. */
  name: string;
  /**
   * A tick this long after the last one ended (so ticks never pile up behind a slow one); the
   * first at start. 0: no tick of its own, only when woken.
   */
  everyMs: number;
  /** The first tick after `everyMs`, not at start (housekeeping that can wait). */
  waitFirst?: boolean;
  /** One tick. Its rejection is logged once by the engine and the loop goes on. */
  tick(): Promise<unknown>;
  /** Awaited before the first tick (start-up work: a grace, schedule rows); loops begin in list order. */
  begin?(): Promise<void>;
  /** Told at stop before the tick under way is awaited: abort what it waits on (a call, a request). */
  halt?(): void;
  /** Awaited after the last tick ended, in the engine's stop order (leases let go, calls handed back). */
  end?(): Promise<void>;
  /**
   * At stop, how long a tick under way is waited for at most (an OPTIONS probe to a silent
   * PBX takes 64·T1 = 32 s: RFC 3261 §17.1.2.2); default: until it ends.
   */
  stopWaitMs?: number;
}

/** A loop's controls (engine.ts keeps one per LoopSpec). */
export interface Loop {
  readonly name: string;
  /**
   * A tick that begins after this call: now, or, when one is under way, one more right after
   * it (what asked may have come after that tick read its work). Never two at once; every ask
   * during one tick shares the one that follows. Rejects when that tick fails; the failure is
   * logged once all the same.
   */
  tick(): Promise<unknown>;
  /** Ticks now and then every `everyMs` after the last ended. */
  start(): void;
  /** No more ticks; resolves once the tick under way ended (or `stopWaitMs` passed). */
  stop(): Promise<void>;
}

/** `observe`: told each tick's seconds, failed ones too (the histogram, engine.ts). */
export function createLoop(spec: LoopSpec, log: Logger, observe: (loop: string, seconds: number) => void): Loop {
  let running: Promise<unknown> | null = null;
  /** The tick asked for while `running` runs: it starts when that one ended (null: none asked). */
  let next: Promise<unknown> | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let started = false;
  let stopped = false;

  const run = (): Promise<unknown> => {
    if (running) {
      next ??= running
        .catch(() => undefined)
        .then(() => {
          next = null;
          return stopped ? undefined : run();
        });
      return next;
    }
    const t0 = performance.now();
    let p: Promise<unknown>;
    try {
      // Called at once, not on a later microtask: a tick's first step (a probe sent) happens here.
      p = Promise.resolve(spec.tick());
    } catch (e) {
      p = Promise.reject(e);
    }
    const settled = p.finally(() => {
      observe(spec.name, (performance.now() - t0) / 1000);
      running = null;
    });
    // Logged here, once per tick, however many callers joined it.
    settled.catch((e) => log.error({ loop: spec.name, error: describeError(e) }, 'loop tick failed'));
    running = settled;
    return settled;
  };

  const scheduled = () => {
    timer = null;
    void run()
      .catch(() => undefined)
      .finally(() => {
        if (!stopped) timer = setTimeout(scheduled, spec.everyMs);
      });
  };

  return {
    name: spec.name,
    tick: run,
    start() {
      if (started || stopped) return;
      started = true;
      if (spec.everyMs > 0) {
        if (spec.waitFirst) timer = setTimeout(scheduled, spec.everyMs);
        else scheduled();
      }
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      const under = running?.catch(() => undefined);
      await (spec.stopWaitMs === undefined ? under : until(under, spec.stopWaitMs));
    },
  };
}
