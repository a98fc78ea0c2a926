import type { ErrorCode } from '../errors';

/** The refusals the intake can decide; each is a code of the error catalogue (src/errors). */
export type IntakeRefusal = Extract<
  ErrorCode,
  | 'malformed_request'
  | 'missing_fields'
  | 'invalid_api_credentials'
  | 'invalid_webhook_key'
  | 'invalid_signature'
  | 'signature_required'
  | 'plan_refused'
  | 'message_too_long'
  | 'too_many_numbers'
  | 'invalid_phone_number'
  | 'insufficient_credit'
  | 'alert_key_too_long'
  | 'unknown_policy'
>;

/**
 * What the intake decided, as a value. A refusal is a catalogue code; the HTTP edge takes
 * its status and message from the catalogue. QUEUED is stored as it is for idempotent
 * replays (store/idempotency), so its shape MUST stay readable by later versions.
 */
export type Outcome =
  | { code: Exclude<IntakeRefusal, 'invalid_phone_number' | 'missing_fields'>; reason?: 'replayed' }
  /** `missing`: the fields absent or empty, as the client names them (issue 10 §10). */
  | { code: 'missing_fields'; missing?: string[] }
  /** `value` is the entry as sent (webhook); absent for the direct endpoint. */
  | { code: 'invalid_phone_number'; value?: string; accepted?: readonly string[] }
  /** An SNS SubscriptionConfirmation: answered 200, nothing queued; the URL goes to the history. */
  | { code: 'SNS_CONFIRMATION'; subscribeUrl: string; decision: string }
  | {
      code: 'QUEUED';
      /** The calls this request queued (and charged); empty when every number was deduplicated. */
      callIds: string[];
      endpoint: IntakeEndpoint;
      /** The alert the calls belong to (absent in outcomes stored before alerts existed). */
      alertId?: string;
      /**
       * Present only when the request had an `alert_key`: the existing calls that stood in for
       * numbers of this request (docs/http-api.md "Alerts: dedupe and resolve"). A plain request's
       * answer stays exactly as before alerts.
       */
      deduplicatedCallIds?: string[];
      /** The maintenance window (mw_…) under which nobody was called (docs/on-call.md "Maintenance windows"). */
      suppressed?: string;
      /** `Nobody to call: <why>`: nobody could be called (docs/on-call.md "Nothing silently calls nobody"); the fallback, when set, was. */
      warning?: string;
    }
  /** `status: resolved` with a key: the open alert it closed (null when none) and the calls that ended. */
  | { code: 'RESOLVED'; alertId: string | null; cancelledCallIds: string[] };

/** `pagerduty` / `opsgenie`: the compatible intake (docs/integrations.md "PagerDuty and Opsgenie compatible intake"). */
export type IntakeEndpoint = 'api' | 'webhook' | 'pagerduty' | 'opsgenie';

export interface IntakeResult {
  outcome: Outcome;
  /** Who asked, once known: recorded in the API history. */
  accountId: string | null;
  credentialId: string | null;
  /** True when an Idempotency-Key matched an earlier accepted request. */
  replayed: boolean;
}
