import { cutForSpeech, record, sentences, str } from '../sources/speech';
import { textLabels, type AlertRef, type CompatAction } from './compat-intake';

/**
 * The Opsgenie Alert API as read by the appliance (docs/integrations.md "PagerDuty and Opsgenie compatible
 * intake"): `POST /v2/alerts`, `POST /v2/alerts/{identifier}/close|acknowledge`, the
 * `GenieKey` header, so a tool written for Opsgenie needs only its API URL changed. Opsgenie's
 * answers are outward/opsgenie-json.ts.
 */

/** The account's webhook key as `vwk_` + letters and digits (src/store/credentials.ts). */
const KEY_FORMAT = /^vwk_[A-Za-z0-9]+$/;
const PRIORITIES = ['P1', 'P2', 'P3', 'P4', 'P5'];

export type GenieKey = { ok: true; key: string } | { ok: false; message: 'Could not authenticate' | 'Key format is not valid!' };

/**
 * `Authorization: GenieKey <key>`: absent (or another scheme) cannot authenticate; a key
 * that cannot be one of ours is Opsgenie's "Key format is not valid!"; both are 401.
 */
export function readGenieKey(authorization: string | null): GenieKey {
  const m = /^\s*GenieKey\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!m) return { ok: false, message: 'Could not authenticate' };
  return KEY_FORMAT.test(m[1]!) ? { ok: true, key: m[1]! } : { ok: false, message: 'Key format is not valid!' };
}

/** Opsgenie's 422: the field names what was wrong with it. */
export type Unprocessable = { ok: false; errors: Record<string, string> };

/**
 * `POST /v2/alerts`: `message` (required) is spoken, then `description`; `alias` is the alert
 * key (no alias: an alert nobody can name again, as in Opsgenie). `priority`, `tags`,
 * `details`, `responders`, `visibleTo`, `actions`, `entity`, `source`, `note`, `user` are
 * accepted (checked for their type) and not spoken; text `details` are the alert's labels.
 */
export function readCreateAlert(body: Uint8Array): { ok: true; action: Extract<CompatAction, { kind: 'trigger' }>; alias: string | null } | Unprocessable {
  const parsed = jsonObject(body, false);
  if (!parsed.ok) return parsed;
  const a = parsed.value;
  const errors: Record<string, string> = {};
  const message = str(a.message);
  if (!message) errors.message = 'Message can not be empty.';
  if (a.priority !== undefined && !PRIORITIES.includes(String(a.priority))) errors.priority = 'Priority should be one of [P1, P2, P3, P4, P5]';
  if (a.tags !== undefined && !(Array.isArray(a.tags) && a.tags.every((t) => typeof t === 'string'))) errors.tags = 'Tags should be a list of strings';
  if (a.details !== undefined && (a.details === null || typeof a.details !== 'object' || Array.isArray(a.details))) errors.details = 'Details should be an object';
  for (const list of ['responders', 'visibleTo', 'actions'] as const) if (a[list] !== undefined && !Array.isArray(a[list])) errors[list] = `${list} should be a list`;
  if (a.alias !== undefined && typeof a.alias !== 'string') errors.alias = 'Alias should be a string';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const alias = str(a.alias);
  // `details` (Alertmanager puts the group's common labels there) are what a maintenance window's `label:` matches.
  const action = { kind: 'trigger' as const, key: alias, message: cutForSpeech(sentences([message, str(a.description)])), labels: textLabels(a.details) };
  return { ok: true, alias, action };
}

/** The actions on one alert this API takes; the others Opsgenie has are answered as not found. */
const ALERT_ACTIONS = ['close', 'acknowledge', 'notes', 'unacknowledge'] as const;
export type AlertActionName = (typeof ALERT_ACTIONS)[number];

export function isAlertActionName(name: string): name is AlertActionName {
  return (ALERT_ACTIONS as readonly string[]).includes(name);
}

/**
 * `POST /v2/alerts/{identifier}/{action}?identifierType=…`: `alias` names the alert by its
 * key, `id` (the default, as in Opsgenie) by our `alt_…`. The body (`user`, `source`, `note`)
 * may be absent. `close` resolves, `acknowledge` acknowledges; `notes` and `unacknowledge`
 * are accepted and change nothing (an acknowledged alert does not reopen here).
 */
export function readAlertAction(identifier: string, identifierType: string | undefined, action: AlertActionName, body: Uint8Array): { ok: true; action: CompatAction } | Unprocessable {
  const parsed = jsonObject(body, true);
  if (!parsed.ok) return parsed;
  const type = (identifierType ?? 'id').trim().toLowerCase();
  if (type !== 'id' && type !== 'alias') return { ok: false, errors: { identifierType: "Identifier type should be 'id' or 'alias'" } };
  const name = identifier.trim();
  if (!name) return { ok: false, errors: { identifier: 'Identifier can not be empty.' } };
  const by: AlertRef = type === 'alias' ? { key: name } : { id: name };
  if (action === 'close') return { ok: true, action: { kind: 'resolve', by } };
  if (action === 'acknowledge') return { ok: true, action: { kind: 'acknowledge', by } };
  return { ok: true, action: { kind: 'ignore' } };
}

/**
 * A body that must be a JSON object; `optional`: an empty body counts as `{}` (close and
 * acknowledge need none).
 */
function jsonObject(body: Uint8Array, optional: boolean): { ok: true; value: Record<string, unknown> } | Unprocessable {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return { ok: false, errors: { body: 'Request body is not valid UTF-8' } };
  }
  if (optional && text.trim() === '') return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, errors: { body: 'Request body is not valid JSON' } };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: false, errors: { body: 'Request body should be a JSON object' } };
  return { ok: true, value: record(value) };
}
