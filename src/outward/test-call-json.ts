import { describeOutcome, type CallOutcome } from '../call-model';

/**
 * `test-call --json`: how the one call ended, and what happened on the way (`progress`:
 * ringing, answered, keypad lines). `said`: the one line a person reads, as the text output
 * and the self-test put it ("trunk did not answer: …" when nothing came back). Fields may be
 * added, never renamed.
 */
export function testCallJson(number: string, outcome: CallOutcome, progress: string[]) {
  return { number, outcome: outcome.code, sip_code: outcome.status, reason: outcome.reason, said: describeOutcome(outcome), progress };
}
