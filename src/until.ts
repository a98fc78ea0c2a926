/**
 * Waits for `event` or `ms`, whichever comes first, and leaves no timer behind: a pending
 * timer (a 32 s 64·T1 bound, a 3 s stop bound) would keep a stopping process alive long
 * after its last call, and systemd would wait for it.
 */
export function until(event: Promise<unknown> | undefined, ms: number): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const elapsed = new Promise((r) => (timer = setTimeout(r, ms)));
  return Promise.race([event ?? Promise.resolve(), elapsed]).finally(() => clearTimeout(timer));
}
