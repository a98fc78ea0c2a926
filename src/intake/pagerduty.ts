import { cutForSpeech, record, sentences, str } from '../sources/speech';
import { generatedKey, textLabels, type CompatAction } from './compat-intake';

/**
 * PagerDuty Events API v2 (`POST /v2/enqueue`) as read by the appliance (docs/integrations.md "PagerDuty and
 * Opsgenie compatible intake"): the event's fields, so a tool written for PagerDuty needs only
 * its URL changed. PagerDuty's answers are outward/pagerduty-json.ts.
 */

/** `payload.severity` as PagerDuty allows it. */
const SEVERITIES = ['critical', 'error', 'warning', 'info'] as const;
const ACTIONS = ['trigger', 'acknowledge', 'resolve'] as const;

export type PagerDutyEvent =
  | { ok: true; routingKey: string; action: CompatAction; dedupKey: string }
  | { ok: false; errors: string[] };

/**
 * Reads an event: its JSON, then every field PagerDuty requires, all errors at once (as
 * PagerDuty lists them). The spoken text is `payload.summary`, then `payload.source` and
 * `payload.severity`, cut to what one call can say.
 */
export function readPagerDutyEvent(body: Uint8Array): PagerDutyEvent {
  let event: unknown;
  try {
    event = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    return { ok: false, errors: ['JSON parse error'] };
  }
  if (event === null || typeof event !== 'object' || Array.isArray(event)) return { ok: false, errors: ['Event object must be a JSON object'] };
  const e = event as Record<string, unknown>;
  const errors: string[] = [];
  const routingKey = str(e.routing_key);
  if (!routingKey) errors.push("'routing_key' cannot be blank");
  const action = str(e.event_action);
  if (!action) errors.push("'event_action' is missing or blank");
  else if (!(ACTIONS as readonly string[]).includes(action)) errors.push("'event_action' is invalid (must be one of the following: 'trigger', 'acknowledge' or 'resolve')");
  const dedupKey = str(e.dedup_key);
  if (action === 'trigger') {
    const payload = record(e.payload);
    for (const field of ['summary', 'source', 'severity'] as const) if (!str(payload[field])) errors.push(`'payload.${field}' is missing or blank`);
    const severity = str(payload.severity);
    if (severity && !(SEVERITIES as readonly string[]).includes(severity)) {
      errors.push("'payload.severity' is invalid (must be one of the following: 'critical', 'warning', 'error' or 'info')");
    }
    if (errors.length > 0) return { ok: false, errors };
    // PagerDuty generates a key for a trigger without one and returns it (docs/integrations.md).
    const key = dedupKey ?? generatedKey();
    const message = cutForSpeech(sentences([str(payload.summary), str(payload.source), severity]));
    // `component`, `group`, `class` and the custom details are what a maintenance window's `label:` matches.
    const labels = textLabels(payload.custom_details, { component: payload.component, group: payload.group, class: payload.class });
    return { ok: true, routingKey: routingKey!, dedupKey: key, action: { kind: 'trigger', key, message, labels } };
  }
  if ((action === 'acknowledge' || action === 'resolve') && !dedupKey) errors.push("'dedup_key' is missing or blank");
  if (errors.length > 0) return { ok: false, errors };
  const by = { key: dedupKey! };
  return { ok: true, routingKey: routingKey!, dedupKey: dedupKey!, action: action === 'resolve' ? { kind: 'resolve', by } : { kind: 'acknowledge', by } };
}

/** `payload.summary` of a change event: PagerDuty's own limit (developer-docs "Send a Change Event"). */
const MAX_CHANGE_SUMMARY = 1024;

/**
 * `POST /v2/change/enqueue` (PagerDuty's change events, developer-docs "Send a Change Event"):
 * `routing_key` and `payload.summary` required, `payload.source`, `payload.timestamp`,
 * `payload.custom_details` and `links` optional. A change is information, never a page: it is
 * accepted (the key checked as an alert event's is) and calls nobody.
 */
export function readPagerDutyChange(body: Uint8Array): { ok: true; routingKey: string } | { ok: false; errors: string[] } {
  let event: unknown;
  try {
    event = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    return { ok: false, errors: ['JSON parse error'] };
  }
  if (event === null || typeof event !== 'object' || Array.isArray(event)) return { ok: false, errors: ['Event object must be a JSON object'] };
  const e = event as Record<string, unknown>;
  const errors: string[] = [];
  const routingKey = str(e.routing_key);
  if (!routingKey) errors.push("'routing_key' cannot be blank");
  const summary = str(record(e.payload).summary);
  if (!summary) errors.push("'payload.summary' is missing or blank");
  else if (Array.from(summary).length > MAX_CHANGE_SUMMARY) errors.push(`'payload.summary' is longer than ${MAX_CHANGE_SUMMARY} characters`);
  if (e.links !== undefined && !Array.isArray(e.links)) errors.push("'links' must be an array");
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, routingKey: routingKey! };
}
