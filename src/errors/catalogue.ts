/**
 * Every error the appliance answers over HTTP or on the command line, in one list (after
 * ntfy's server/errors.go):
 * a stable machine `code` that clients and the panel may key on, the HTTP status and the
 * message. The docs fix each status and message (docs/http-api.md, docs/operations.md); this list
 * is the one place they live.
 *
 * Codes are snake_case and NEVER change or get reused once shipped: scripts match on them.
 * Messages are the docs' and NEVER change either (tests assert them exactly).
 */
export const ERRORS = [
  // The HTTP edge, before any endpoint looks at the request (docs/http-api.md: rows 1–2 of both
  // tables, and "Other paths" under GET /healthz).
  { code: 'rate_limited', status: 429, message: 'Rate limit exceeded' },
  { code: 'body_too_large', status: 413, message: 'Request body too large' },
  { code: 'not_found', status: 404, message: 'Not found' },
  { code: 'method_not_allowed', status: 405, message: 'Method not allowed' },
  { code: 'internal_error', status: 500, message: 'Internal error' },
  { code: 'database_unavailable', status: 503, message: 'Database unavailable' },
  /** GET /healthz: free space under store.min_free_mb (docs/http-api.md "GET /healthz", docs/operations.md "Health"). */
  { code: 'disk_space_low', status: 503, message: 'Disk space low' },
  /** GET /metrics with metrics.token set and no (or another) `Authorization: Bearer` token. */
  { code: 'metrics_token_required', status: 401, message: 'Metrics token required' },

  // Who is asking (POST /api/call, POST /webhook/receive, GET /api/calls/{id}, /api/alerts/{id}).
  { code: 'missing_api_credentials', status: 401, message: 'Missing API credentials (X-Api-Key with X-Api-Secret or X-Signature)' },
  { code: 'invalid_api_credentials', status: 403, message: 'Invalid API credentials' },
  { code: 'invalid_webhook_key', status: 403, message: 'Invalid webhook key' },
  { code: 'invalid_signature', status: 403, message: 'Invalid signature' },
  { code: 'signature_required', status: 403, message: 'Signature required' },
  { code: 'plan_refused', status: 403, message: 'Your plan does not allow API/webhook access' },
  { code: 'account_disabled', status: 403, message: 'Account disabled' },

  // What was asked.
  { code: 'malformed_request', status: 400, message: 'Malformed request' },
  { code: 'missing_fields', status: 400, message: 'Missing fields' },
  /** `policy` (body or query) names no escalation policy of the account. */
  { code: 'unknown_policy', status: 400, message: 'Unknown escalation policy' },
  { code: 'message_too_long', status: 400, message: 'Message too long (max 500 characters)' },
  { code: 'too_many_numbers', status: 400, message: 'Too many phone numbers (max 10)' },
  /** The webhook names the entry: `Invalid phone number: <the value as sent>` (see errorBody). */
  { code: 'invalid_phone_number', status: 400, message: 'Invalid phone number' },
  { code: 'insufficient_credit', status: 402, message: 'Insufficient call credit' },
  { code: 'call_not_found', status: 404, message: 'Call not found' },
  /** `alert_key` identifies an alert for dedupe and resolve (≤ 200 characters: docs/http-api.md "Alerts: dedupe and resolve"). */
  { code: 'alert_key_too_long', status: 400, message: 'Alert key too long (max 200 characters)' },
  /** Another account's alert answers exactly like a missing one, so ids cannot be probed. */
  { code: 'alert_not_found', status: 404, message: 'Alert not found' },
  /** GET /api/schedules/{name}/oncall: another account's schedule answers like a missing one (docs/on-call.md "On-call schedules"). */
  { code: 'schedule_not_found', status: 404, message: 'Schedule not found' },
  /** DELETE /api/policies/{name}: another account's policy answers like a missing one. */
  // Deleting what another object uses (docs/on-call.md "Nothing silently calls nobody"): the answer
  // adds `used_by` ([{kind, id, name}]); the CLI and the panel name the same users.
  { code: 'schedule_in_use', status: 409, message: 'Schedule in use' },
  { code: 'policy_in_use', status: 409, message: 'Policy in use' },
  { code: 'person_in_use', status: 409, message: 'Person in use' },

  // Maintenance windows (docs/on-call.md "Maintenance windows"); the detail after ": " names the
  // field.
  { code: 'maintenance_bad_time', status: 400, message: 'Invalid time (ISO 8601 with a zone, e.g. 2026-11-25T22:00:00Z)' },
  { code: 'maintenance_end_before_start', status: 400, message: 'Maintenance window must end after it starts' },
  { code: 'maintenance_bad_match', status: 400, message: 'Invalid match (key=PREFIX, source=NAME or label:NAME=VALUE)' },
  { code: 'maintenance_invalid', status: 400, message: 'Invalid maintenance window' },
  { code: 'maintenance_not_found', status: 404, message: 'Maintenance window not found' },

  /** GET|HEAD|POST /heartbeat/{token} with a token no heartbeat has (docs/on-call.md "Heartbeats"). */
  { code: 'heartbeat_not_found', status: 404, message: 'Heartbeat not found' },

  // What the command line refuses (src/cli/refusal.ts prints `voice-alert: <message>[: detail]`,
  // exit 1); the HTTP API answers an unknown account as invalid credentials instead.
  { code: 'account_not_found', status: 404, message: 'Account not found' },
  { code: 'credential_not_found', status: 404, message: 'Credentials not found' },
  { code: 'policy_not_found', status: 404, message: 'Escalation policy not found' },
  { code: 'policy_name_taken', status: 409, message: 'Escalation policy name taken' },
  { code: 'invalid_policy', status: 400, message: 'Invalid escalation policy' },
  { code: 'heartbeat_name_taken', status: 409, message: 'Heartbeat name taken' },
  { code: 'invalid_heartbeat', status: 400, message: 'Invalid heartbeat' },
  { code: 'schedule_name_taken', status: 409, message: 'Schedule name taken' },
  { code: 'invalid_schedule', status: 400, message: 'Invalid schedule' },
  { code: 'invalid_override', status: 400, message: 'Invalid override' },
  { code: 'override_not_found', status: 404, message: 'Override not found' },
  // People (docs/on-call.md "People"): another account's person answers like a missing one.
  { code: 'person_not_found', status: 404, message: 'Person not found' },
  { code: 'person_name_taken', status: 409, message: 'Person name taken' },
  { code: 'invalid_person', status: 400, message: 'Invalid person' },

  // The panel's test calls (src/accounts/test-calls.ts): what an owner may not do.
  { code: 'no_trunk', status: 503, message: 'No SIP trunk configured' },
  { code: 'number_not_allowed', status: 403, message: 'Test calls go only to numbers this account has called' },
] as const satisfies readonly ApiError[];

export interface ApiError {
  code: string;
  status: number;
  message: string;
}

/** Every code of the catalogue: what a refusal carries from the service to the edge. */
export type ErrorCode = (typeof ERRORS)[number]['code'];

const byCode = new Map<string, ApiError>(ERRORS.map((e) => [e.code, e]));

export function errorFor(code: ErrorCode): ApiError {
  return byCode.get(code)!;
}

/**
 * docs/http-api.md's error body, plus `code`. `detail` follows the message after ": "
 * (the webhook's `Invalid phone number: <value>`).
 */
export function errorBody(code: ErrorCode, detail?: string): { status: 'error'; message: string; code: ErrorCode } {
  const { message } = errorFor(code);
  return { status: 'error', message: detail === undefined ? message : `${message}: ${detail}`, code };
}
