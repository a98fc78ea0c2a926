/**
 * The largest gap between the ticks of a 10 ms interval while `during` runs: the event loop
 * was never blocked longer (docs/high-availability.md: no database wait blocks it).
 * Also how long `during` took, and how it settled.
 */
export async function largestTickGap<T>(during: () => Promise<T>): Promise<{ gap: number; ms: number; result: PromiseSettledResult<T> }> {
  const started = performance.now();
  let last = started;
  let gap = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    gap = Math.max(gap, now - last);
    last = now;
  }, 10);
  try {
    const [result] = await Promise.allSettled([during()]);
    const now = performance.now();
    return { gap: Math.max(gap, now - last), ms: now - started, result: result! };
  } finally {
    clearInterval(ticker);
  }
}
