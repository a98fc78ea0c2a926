/**
 * What the intake decided, as a value. The HTTP edge maps each code to a status and
 * message in one table (src/http/outcome-table.ts, after contract.md).
 */
export type Outcome =
  | { code: 'MALFORMED' }
  | { code: 'MISSING_FIELDS' }
  | { code: 'INVALID_API_CREDENTIALS' }
  | { code: 'INVALID_WEBHOOK_KEY' }
  | { code: 'INVALID_SIGNATURE' }
  | { code: 'SIGNATURE_REQUIRED' }
  | { code: 'PLAN_REFUSED' }
  | { code: 'MESSAGE_TOO_LONG' }
  | { code: 'TOO_MANY_NUMBERS' }
  /** `value` is the entry as sent (webhook); absent for the direct endpoint. */
  | { code: 'INVALID_PHONE'; value?: string }
  | { code: 'INSUFFICIENT_CREDIT' }
  | { code: 'QUEUED'; callIds: string[]; endpoint: IntakeEndpoint };

export type IntakeEndpoint = 'api' | 'webhook';

export interface IntakeResult {
  outcome: Outcome;
  /** Who asked, once known: recorded in the API history. */
  accountId: string | null;
  credentialId: string | null;
  /** True when an Idempotency-Key matched an earlier accepted request. */
  replayed: boolean;
}
