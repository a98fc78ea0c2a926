import { expect } from 'vitest';
import { parsePromText, sampleValue } from './prom-text';

/** How many ticks each of `loops` has ended in the appliance at `url` (voice_alert_loop_tick_seconds_count{loop}, src/engine). */
export async function loopTicks(url: string, loops: string[]): Promise<Record<string, number>> {
  const f = parsePromText(await (await fetch(`${url}/metrics`)).text());
  return Object.fromEntries(loops.map((loop) => [loop, sampleValue(f, 'voice_alert_loop_tick_seconds_count', { loop }) ?? 0]));
}

/**
 * Waits until each of `loops` has ended two more ticks than when called: the second began
 * after the call, so whatever that loop would do about the state the test left (send again,
 * dial again) it has done. An event to wait on instead of a sleep longer than the loop's interval.
 */
export async function untilLoopsLookedAgain(url: string, loops: string[], timeoutMs = 30_000): Promise<void> {
  const before = await loopTicks(url, loops);
  await expect
    .poll(async () => {
      const now = await loopTicks(url, loops);
      return loops.filter((loop) => now[loop]! < before[loop]! + 2);
    }, { timeout: timeoutMs, interval: 200 })
    .toEqual([]);
}
