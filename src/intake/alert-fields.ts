import { textField } from './message';

/**
 * docs/http-api.md "Alerts: dedupe and resolve": an `alert_key` is at most 200 characters (Unicode
 * code points, after trimming).
 */
export const MAX_ALERT_KEY_CODE_POINTS = 200;

/** What a request body says about its alert, besides numbers and text. */
export interface AlertFields {
  /** The trimmed `alert_key`, or null when absent or blank (a plain request: never deduplicated). */
  key: string | null;
  /** `status` = `resolved` (any case, trimmed): close the alert of this key instead of calling. */
  resolve: boolean;
  /** The escalation policy named by the body's `policy`, else the query's; null: none named. */
  policy: string | null;
}

export function alertFields(fields: Record<string, unknown>, queryPolicy: string | null = null): AlertFields {
  const key = textField(fields.alert_key);
  const policy = textField(fields.policy) || queryPolicy?.trim() || null;
  return { key: key === '' ? null : key, resolve: textField(fields.status).toLowerCase() === 'resolved', policy };
}

export function isAlertKeyTooLong(key: string | null): boolean {
  if (key === null) return false;
  let n = 0;
  for (const _ of key) if (++n > MAX_ALERT_KEY_CODE_POINTS) return true;
  return false;
}
