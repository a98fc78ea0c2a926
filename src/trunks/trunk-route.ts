import type { CallOutcome } from '../call-model';
import { numberFormOf, type NumberForm } from '../phone';
import { SRTP_REQUIRED_REASON } from '../sip';
import type { TrunkState } from './trunk-monitor';

/**
 * Which trunk a call goes to, and which failures move it to the next one (docs/telephony.md "SIP
 * trunks: several, in order"). Pure: trunk-set.ts applies it, retry-policy.ts still alone
 * decides what the attempt's final outcome means.
 */
export interface RouteTrunk {
  name: string;
  /** null: every number form. */
  numbers: readonly NumberForm[] | null;
  state: TrunkState;
}

/** 5xx that says something about the callee, not the trunk (RFC 3312 §8: 580 Precondition Failure). */
const CALLEE_5XX = new Set([580]);
/** Our credentials were not accepted (or none were asked for in time): the trunk refuses us. */
const REFUSED_US = new Set([401, 403, 407]);

/**
 * True when the attempt failed because of the trunk, not the callee: nothing came back to
 * the INVITE (no response within the ring timeout, Timer B's 408), the request could not be
 * sent (TCP connect failure, a transport error's 503), a 5xx other than 580, 401/403/407
 * after our credentials, or a plain-RTP answer on a trunk that requires SRTP. Busy, no
 * answer after ringing, and 4xx/6xx about the callee (404, 480, 486, 603 …) are the
 * callee's: false.
 */
export function isTrunkFailure(o: CallOutcome): boolean {
  switch (o.code) {
    case 'NETWORK':
      return true;
    // A trunk that requires SRTP answered plain RTP (docs/telephony.md "SIP over TLS and SRTP").
    case 'MEDIA':
      return o.reason.startsWith(SRTP_REQUIRED_REASON);
    case 'NO_ANSWER':
      return o.silent === true;
    case 'SIP_FINAL':
      if (o.local) return true;
      if (o.status >= 500 && o.status < 600) return !CALLEE_5XX.has(o.status);
      return REFUSED_US.has(o.status);
    default:
      return false;
  }
}

/** May this trunk dial this stored number (its `numbers`)? */
export function mayDial(trunk: Pick<RouteTrunk, 'numbers'>, number: string): boolean {
  if (trunk.numbers === null) return true;
  const form = numberFormOf(number);
  return form !== null && trunk.numbers.includes(form);
}

/**
 * The trunks to try for `number`, in order: every trunk that may dial it and is not `down`
 * (`none` is tried in its turn). When all of those are down, they are tried anyway, in
 * order: a state is only the last probe's guess, and a call held back dials nobody.
 */
export function trunkOrder<T extends RouteTrunk>(trunks: readonly T[], number: string): T[] {
  const allowed = trunks.filter((t) => mayDial(t, number));
  const live = allowed.filter((t) => t.state !== 'down');
  return live.length > 0 ? live : allowed;
}

/**
 * True when trunks may dial `number` but none of them is up: each is `down` (a trunk not
 * started counts as down; `none`, never probed, as up). False when no trunk may dial it at
 * all: that is the configuration, not a trunk down. A person's call is then texted instead
 * (docs/second-path.md "When no trunk is up").
 */
export function noneUpFor(trunks: readonly RouteTrunk[], number: string): boolean {
  const allowed = trunks.filter((t) => mayDial(t, number));
  return allowed.length > 0 && allowed.every((t) => t.state === 'down');
}
