import type { CallOutcome } from '../call-model';

/**
 * `test-call --json`: how the one call ended, and what happened on the way (`progress`:
 * ringing, answered, keypad lines). Fields may be added, never renamed.
 */
export function testCallJson(number: string, outcome: CallOutcome, progress: string[]) {
  return { number, outcome: outcome.code, sip_code: outcome.status, reason: outcome.reason, progress };
}
