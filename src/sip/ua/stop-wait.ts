/**
 * How long a stopping trunk waits for one SIP transaction to end (the un-REGISTER, the
 * CANCEL of a call not answered, the BYE of one that was) before it gives the transaction up:
 * 4·T1, never under 1 s nor over 5 s. 2 s with the default T1 (500 ms).
 *
 * By 4·T1 a request has gone out three times (at 0, T1 and 3·T1: Timers A and E, RFC 3261
 * §17.1.1.2, §17.1.2.2) and the last copy had a round trip (T1 is its estimate, §17) to be
 * answered. A PBX that answered none of them has gone silent; waiting on for Timer B or F
 * (64·T1, 32 s) would only keep the process alive after it said it stopped (docs/operations.md
 * "Stopping"). The floor keeps a T1 tuned down for a LAN PBX from cutting off an answer on
 * its way; the ceiling keeps a T1 tuned up for a slow link from stretching the stop.
 */
export function stopWaitMs(t1Ms: number): number {
  return Math.min(5000, Math.max(1000, 4 * t1Ms));
}

/**
 * Waits for `ended`, at most `ms`; once `stopping` is aborted (already, or while waiting),
 * at most `stopMs` more. Leaves no timer and no listener behind (a pending timer would keep
 * a stopping process alive: src/until.ts).
 */
export function endedOrStopped(ended: Promise<unknown>, ms: number, stopping: AbortSignal | undefined, stopMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    let stopTimer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => (stopTimer ??= setTimeout(done, stopMs));
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      clearTimeout(stopTimer);
      stopping?.removeEventListener('abort', onAbort);
      resolve();
    }
    void ended.then(done, done);
    if (stopping?.aborted) onAbort();
    else stopping?.addEventListener('abort', onAbort, { once: true });
  });
}
