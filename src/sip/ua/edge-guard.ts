import { IllegalTransitionError } from '../../call-model';

/** Wraps a callback so that an illegal edge inside it is reported, not thrown (edgeGuard). */
export type Guard = <A extends unknown[]>(fn: (...a: A) => void) => (...a: A) => void;

/**
 * An illegal edge of a call's machine (ua/attempt.ts, ua/inbound-call.ts) met in a callback
 * from sip.js, the RTP stream, a timer or a signal must not throw into them: `guarded`
 * callbacks turn an IllegalTransitionError into the rejection of `failed` (the first one),
 * and the call's driver gives the call up (place-call.ts races the attempt against it,
 * answer-call.ts hangs up). Anything else they throw goes on as it was.
 */
export function edgeGuard(): { guarded: Guard; failed: Promise<never> } {
  let fail: (e: IllegalTransitionError) => void = () => {};
  const failed = new Promise<never>((_, reject) => (fail = reject));
  const guarded: Guard =
    (fn) =>
    (...a) => {
      try {
        fn(...a);
      } catch (e) {
        if (!(e instanceof IllegalTransitionError)) throw e;
        fail(e);
      }
    };
  return { guarded, failed };
}
