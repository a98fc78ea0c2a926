import { describeError, type Logger } from './log';

/**
 * A periodic look at the store (due escalation steps, window starts, on-call hand-offs,
 * heartbeat deadlines) that never overlaps itself: a look asked for while one runs joins it.
 * The rows themselves are claimed with leases (docs/high-availability.md); this only paces
 * one appliance's looks.
 */
export interface Poller<T> {
  /** One look now (or the one under way); rejects when it fails. */
  tick(): Promise<T>;
  /** A look now and then every `intervalMs`; a failed look is logged and the next one comes. */
  start(intervalMs: number): void;
  /** No more looks; resolves once a look under way ended. */
  stop(): Promise<void>;
}

/** `what`: the look's name in the log line of a failure (`… failed`). */
export function createPoller<T>(look: () => Promise<T>, log: Logger, what: string): Poller<T> {
  let timer: ReturnType<typeof setInterval> | null = null;
  let running: Promise<T> | null = null;
  const tick = () => (running ??= look().finally(() => (running = null)));
  const quietly = () => void tick().catch((e) => log.error({ error: describeError(e) }, `${what} failed`));
  return {
    tick,
    start(intervalMs) {
      timer ??= setInterval(quietly, intervalMs);
      quietly();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running?.catch(() => undefined);
    },
  };
}
