import { IllegalTransitionError } from './states';

/**
 * An alert: one accepted request (or one native source's alert), with its key, text and
 * calls (docs/http-api.md "Alerts: dedupe and resolve").
 *
 *   open ──keypad 1 / API / panel / voice desk──> acknowledged
 *     ├───resolve (status: resolved)──> resolved
 *     └───every call ended, nobody pressed 1──> unacknowledged ──API / panel / voice desk──> acknowledged | resolved
 *
 * An unacknowledged alert may still be taken by someone afterwards (docs/telephony.md "Voice desk:
 * calls in" reads them to the engineer who calls in); no call is placed for it any more either way.
 * A closed alert is never reopened: a later request with the same key opens a new one.
 */
export const ALERT_STATES = ['open', 'acknowledged', 'resolved', 'unacknowledged'] as const;
export type AlertState = (typeof ALERT_STATES)[number];

const EDGES: Record<AlertState, readonly AlertState[]> = {
  open: ['acknowledged', 'resolved', 'unacknowledged'],
  acknowledged: [],
  resolved: [],
  unacknowledged: ['acknowledged', 'resolved'],
};

export const canMoveAlert = (from: AlertState, to: AlertState): boolean => EDGES[from].includes(to);

/** The guard for every alert change; an undrawn edge throws (a bug). */
export function alertTransition(from: AlertState, to: AlertState): { from: AlertState; to: AlertState } {
  if (!canMoveAlert(from, to)) throw new IllegalTransitionError('alert', from, to);
  return { from, to };
}

export const isAlertClosed = (s: AlertState) => s !== 'open';
