/**
 * When a failed delivery is tried again (docs/on-call.md "Callbacks", Delivery): 10 s, 1 min,
 * 5 min, 30 min after the first four failures, then every hour, until 24 h after the
 * event happened; an attempt that would fall later is not made (the event is given up).
 */
export const RETRY_DELAYS_MS: readonly number[] = [10_000, 60_000, 300_000, 1_800_000];
export const RETRY_EVERY_MS = 3_600_000;
export const GIVE_UP_AFTER_MS = 24 * 3_600_000;

/**
 * The time of the next attempt after `failures` failed ones (1 after the first), or null
 * when it would be more than 24 h after the event was created: give up.
 */
export function nextAttemptAt(createdAt: number, failures: number, now: number): number | null {
  const delay = RETRY_DELAYS_MS[failures - 1] ?? RETRY_EVERY_MS;
  const next = now + delay;
  return next > createdAt + GIVE_UP_AFTER_MS ? null : next;
}
