/**
 * Polls `check` until it gives something truthy, and returns that; past `ms` it throws
 * naming `what`. For the waits `expect.poll` does not fit: a value to use afterwards, or a
 * check that is itself a sequence of awaits.
 */
export async function until<T>(what: string, check: () => T | Promise<T>, ms = 20_000, intervalMs = 100): Promise<NonNullable<T>> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
