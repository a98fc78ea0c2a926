/**
 * docs/on-call.md "Maintenance windows": an alert a window suppressed places no call until the
 * window's end (`suppressedUntil`, unix ms, copied from the window when it suppressed the
 * alert; a deleted window ends it). The dialer cancels its calls not yet answered, and a
 * call of it that ends leaves the alert open, still firing, for the next repeat after the end.
 */
export function isSuppressed(alert: { suppressedUntil: number | null }, now: number): boolean {
  return alert.suppressedUntil !== null && alert.suppressedUntil > now;
}
