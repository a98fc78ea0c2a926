import { errorFor } from '../errors';
import type { CompatActionKind, CompatAnswerOutcome } from './compat-outcome';
import { iso } from './iso';

/**
 * Opsgenie's Alert API answers (docs/integrations.md "PagerDuty and Opsgenie compatible intake"), as
 * Opsgenie words them; what is read from a request is intake/opsgenie.ts.
 */
export interface OpsgenieAnswer {
  status: number;
  /** The body without `took` and `requestId`, which the edge adds last (opsgenieJson). */
  body: Record<string, unknown>;
}

export const ACCEPTED: OpsgenieAnswer = { status: 202, body: { result: 'Request will be processed' } };

export function unprocessable(errors: Record<string, string>): OpsgenieAnswer {
  return { status: 422, body: { message: 'Request body is not processable. Please check the errors.', errors } };
}

/**
 * The answer to a processed request: `202 Request will be processed`. Refusals: a key we do
 * not know is 401 `Could not authenticate`; a 400 of the catalogue (numbers or policy of the
 * URL) is Opsgenie's 422 naming the query field; the rest (402 credit, 403 plan, …) keep the
 * catalogue's status and message, in Opsgenie's shape.
 */
export function opsgenieAnswer(outcome: CompatAnswerOutcome): OpsgenieAnswer {
  if (outcome.ok) return ACCEPTED;
  if (outcome.code === 'invalid_webhook_key') return { status: 401, body: { message: 'Could not authenticate' } };
  const { status, message } = errorFor(outcome.code);
  if (status === 400) {
    const field = outcome.code === 'unknown_policy' ? 'policy' : 'to';
    return unprocessable({ [field]: outcome.value === undefined ? message : `${message}: ${outcome.value}` });
  }
  return { status, body: { message, code: outcome.code } };
}

/**
 * Opsgenie's JSON: the fields, then `took` (seconds, always with a decimal point, as
 * Opsgenie writes `0.0`) and `requestId`.
 */
export function opsgenieJson(body: Record<string, unknown>, tookSeconds: number, requestId: string): string {
  const rounded = Math.round(tookSeconds * 1000) / 1000;
  const took = Number.isInteger(rounded) ? rounded.toFixed(1) : String(rounded);
  const fields = JSON.stringify(body);
  return `${fields.slice(0, -1)}${fields.length > 2 ? ',' : ''}"took":${took},"requestId":${JSON.stringify(requestId)}}`;
}

/** What `GET /v2/alerts/requests/{requestId}` tells of a processed request (Opsgenie's `data`). */
export interface RequestStatus {
  success: boolean;
  action: 'Create' | 'Close' | 'Acknowledge' | 'AddNote' | 'UnAcknowledge';
  processedAt: string;
  isSuccess: boolean;
  status: string;
  alertId: string | null;
  alias: string | null;
}

const STATUS_WORDS: Record<CompatActionKind, { action: RequestStatus['action']; status: string }> = {
  trigger: { action: 'Create', status: 'Created alert' },
  resolve: { action: 'Close', status: 'Closed alert' },
  acknowledge: { action: 'Acknowledge', status: 'Acknowledged alert' },
  ignore: { action: 'AddNote', status: 'Request accepted' },
};

/**
 * A processed request's status. Always a success: a close or acknowledgement of an alert
 * that is already closed is a normal late repeat here (docs/http-api.md "Alerts: dedupe and resolve"),
 * and Zabbix's Opsgenie script fails its action on `success: false`.
 */
export function requestStatus(kind: CompatActionKind, alertId: string | null, alias: string | null, at: number, noteAction?: string): RequestStatus {
  const words = kind === 'ignore' && noteAction === 'unacknowledge' ? { action: 'UnAcknowledge' as const, status: 'Request accepted' } : STATUS_WORDS[kind];
  return { success: true, action: words.action, processedAt: iso(at), isSuccess: true, status: words.status, alertId, alias };
}
