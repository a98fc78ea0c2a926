import { errorBody, errorFor } from '../errors';
import type { CompatAnswerOutcome } from './compat-outcome';

/**
 * PagerDuty's Events API v2 answers (docs/integrations.md "PagerDuty and Opsgenie compatible intake"), as
 * PagerDuty words them; what is read from a request is intake/pagerduty.ts.
 */
export interface PagerDutyAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** PagerDuty's 400 body: `{"status":"invalid event","message":"Event object is invalid","errors":[…]}`. */
export function invalidEvent(errors: string[]): PagerDutyAnswer {
  return { status: 400, body: { status: 'invalid event', message: 'Event object is invalid', errors } };
}

/** A change event accepted (developer-docs "Send a Change Event"): PagerDuty's 202 body. */
export const CHANGE_PROCESSED: PagerDutyAnswer = { status: 202, body: { status: 'success', message: 'Change event processed' } };

/**
 * The answer to a read event: `202 {"status":"success","message":"Event processed","dedup_key":…}`
 * once it is committed. Refusals: an unknown routing key is PagerDuty's `400 … ["Invalid routing
 * key"]`; any other 400 of the catalogue is an invalid event naming it; the rest (402 credit,
 * 403 plan, …) are the catalogue's own answers.
 */
export function pagerDutyAnswer(outcome: CompatAnswerOutcome, dedupKey: string): PagerDutyAnswer {
  if (outcome.ok) return { status: 202, body: { status: 'success', message: 'Event processed', dedup_key: dedupKey } };
  if (outcome.code === 'invalid_webhook_key') return invalidEvent(['Invalid routing key']);
  const { status } = errorFor(outcome.code);
  const body = errorBody(outcome.code, outcome.value);
  if (status === 400) return invalidEvent([outcome.code === 'missing_fields' ? `${body.message}: to (the numbers to call, or policy=, in the URL)` : body.message]);
  return { status, body };
}
