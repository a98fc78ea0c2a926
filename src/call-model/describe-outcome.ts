import type { CallOutcome } from './outcome';

/**
 * The words for a trunk that sent nothing back (issue 49: `test-call` said "NO_ANSWER 487",
 * read as "nobody picked up"; the self-test said 408; `doctor` said timeout). Every place that
 * tells a person how an INVITE or OPTIONS ended says this when no response came at all.
 */
export const TRUNK_DID_NOT_ANSWER = 'trunk did not answer';

/**
 * How an attempt ended, in one line for people: `trunk did not answer: …` when nothing came
 * back to the INVITE (a silent ring or invite timeout: the 487 is our own CANCEL's answer, so no
 * code is shown; Timer B's 408 is made up on our side, shown as what it is); otherwise the
 * outcome code, the SIP status when there is one, and the reason (`SIP_FINAL 486 Busy Here`).
 */
export function describeOutcome(o: CallOutcome): string {
  return trunkSilence(o) ?? `${o.code}${o.status === null ? '' : ` ${o.status}`} ${o.reason}`.trim();
}

/**
 * `trunk did not answer: …` when nothing came back to the INVITE, else null. The reason an alert
 * call's attempt records (calls/retry-policy.ts) says it so too: the calls list, a call's page and
 * its JSON read "trunk did not answer", not "487 no response…" (our own CANCEL's code, read as
 * "nobody picked up").
 */
export function trunkSilence(o: CallOutcome): string | null {
  if (o.code === 'NO_ANSWER' && o.silent) return `${TRUNK_DID_NOT_ANSWER}: ${o.reason}`;
  if (o.code === 'SIP_FINAL' && o.local && o.status === 408) return `${TRUNK_DID_NOT_ANSWER}: no response to the INVITE (local ${o.status} ${o.reason})`;
  return null;
}
