import { createEngine, type LoopSpec } from '../../src/engine';
import { silentLogger } from '../../src/log';

/**
 * A part with engine loops (the dialer, telephony) run as the appliance runs it, under its
 * own engine: `start()` as before (not awaited), `stop()` stops the loops in their order.
 */
export function withEngine<T extends { loops: LoopSpec[]; start?(): void }>(part: T): Omit<T, 'start'> & { start(): void; stop(): Promise<void> } {
  const engine = createEngine({ log: silentLogger(), loops: part.loops });
  let started: Promise<void> | null = null;
  return {
    ...part,
    start() {
      part.start?.();
      started ??= engine.start();
    },
    async stop() {
      await started;
      await engine.stop();
    },
  };
}
