import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { endedOrStopped, stopWaitMs } from './stop-wait';

beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: 0 }));
afterEach(() => vi.useRealTimers());

const never = new Promise<void>(() => {});
/** How long after this call `p` settled, on the fake clock; null if it has not within `ms`. */
async function settledAt(p: Promise<unknown>, ms: number): Promise<number | null> {
  const t0 = Date.now();
  let at: number | null = null;
  void p.then(() => (at = Date.now() - t0));
  await vi.advanceTimersByTimeAsync(ms);
  return at;
}

describe('stopWaitMs: 4·T1 within 1–5 s', () => {
  it('is 2 s with the default T1, and clamped for a T1 tuned down or up', () => {
    expect(stopWaitMs(500)).toBe(2000);
    expect(stopWaitMs(50)).toBe(1000);
    expect(stopWaitMs(10_000)).toBe(5000);
  });
});

describe('endedOrStopped', () => {
  it('waits the whole bound while the appliance runs', async () => {
    expect(await settledAt(endedOrStopped(never, 32_000, new AbortController().signal, 2000), 40_000)).toBe(32_000);
  });

  it('a stop during the wait leaves only the stop bound, and no timer behind', async () => {
    const stopping = new AbortController();
    const p = endedOrStopped(never, 32_000, stopping.signal, 2000);
    await vi.advanceTimersByTimeAsync(5000);
    stopping.abort();
    expect(await settledAt(p, 40_000)).toBe(2000);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('an already stopping appliance waits the stop bound; an end that comes first ends it', async () => {
    const stopping = new AbortController();
    stopping.abort();
    expect(await settledAt(endedOrStopped(never, 32_000, stopping.signal, 2000), 40_000)).toBe(2000);
    const ended = new Promise<void>((r) => setTimeout(r, 300));
    expect(await settledAt(endedOrStopped(ended, 32_000, stopping.signal, 2000), 40_000)).toBe(300);
    expect(vi.getTimerCount()).toBe(0);
  });
});
