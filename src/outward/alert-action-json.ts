import type { AlertJson } from './alert-json';

/**
 * `alerts ack|resolve --json`: whether the state changed, the waiting calls cancelled, and the
 * alert as it is now. Fields may be added, never renamed.
 */
export function alertActionJson(changed: boolean, cancelledCallIds: string[], alert: AlertJson) {
  return { changed, cancelled_call_ids: cancelledCallIds, alert };
}
