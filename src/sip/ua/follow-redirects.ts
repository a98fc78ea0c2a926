import type { URI, UserAgent } from 'sip.js';
import type { CallAudio, CallOutcome } from '../../call-model';
import { placeCall, type PlaceCallOptions } from './place-call';

/** Redirects followed per dial: a PBX that redirects in a circle ends after this many hops. */
export const MAX_REDIRECTS = 3;

/**
 * A dial that follows 3xx (RFC 3261 §8.1.3.4): the INVITE goes again, as a new call through
 * the same trunk (same server, same credentials), to the redirect's most preferred Contact,
 * at most MAX_REDIRECTS times and within the one ring timeout. A 3xx we cannot follow (no SIP
 * Contact, too many hops, ring time used up) is the outcome at once: SIP_FINAL with its code,
 * never a hang until the ring timeout. The message is rendered once, whatever the hops.
 */
export async function dialFollowingRedirects(ua: UserAgent, target: URI, o: PlaceCallOptions): Promise<CallOutcome> {
  const deadline = Date.now() + o.ringTimeoutMs;
  let rendering: Promise<CallAudio> | null = null;
  const audio = () => (rendering ??= o.audio());
  for (let hop = 0; ; hop++) {
    let next: URI | undefined;
    const outcome = await placeCall(ua, target, { ...o, audio, ringTimeoutMs: Math.max(0, deadline - Date.now()), onRedirect: (c) => (next = c[0]) });
    if (outcome.code !== 'SIP_FINAL' || outcome.status < 300 || outcome.status >= 400) return outcome;
    const why = !next ? 'no SIP Contact' : hop >= MAX_REDIRECTS ? `more than ${MAX_REDIRECTS} redirects` : deadline <= Date.now() ? 'ring timeout used up' : null;
    if (why) return { ...outcome, reason: `${outcome.reason} (redirect not followed: ${why})`.trim() };
    o.log.info({ from: target.toString(), to: next!.toString(), status: outcome.status, hop: hop + 1 }, 'following SIP redirect');
    target = next!;
  }
}
