/**
 * How long an answered call may go on: calls.max_call_s from the answer, or until a stopping
 * appliance says so. `onReached` runs once, with which of the two it was.
 */
export interface CallLimit {
  reached(): false | 'max_call_s' | 'stopping';
  /** Resolves when the limit is reached (never, if cleared first). */
  reachedAt: Promise<'reached'>;
  clear(): void;
}

export function callLimit(ms: number, stopping: AbortSignal | undefined, onReached: (why: 'max_call_s' | 'stopping') => void): CallLimit {
  let hit: false | 'max_call_s' | 'stopping' = false;
  let reach = (_why: 'max_call_s' | 'stopping') => {};
  const reachedAt = new Promise<'reached'>((resolve) => {
    reach = (why) => {
      if (hit) return;
      hit = why;
      onReached(why);
      resolve('reached');
    };
  });
  const onStop = () => reach('stopping');
  const timer = setTimeout(() => reach('max_call_s'), ms);
  if (stopping?.aborted) queueMicrotask(onStop);
  else stopping?.addEventListener('abort', onStop, { once: true });
  return {
    reached: () => hit,
    reachedAt,
    clear() {
      clearTimeout(timer);
      stopping?.removeEventListener('abort', onStop);
    },
  };
}
