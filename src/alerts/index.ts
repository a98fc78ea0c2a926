/**
 * Alerts as a domain: what closes an alert and what that does to its calls and credit
 * (lifecycle.ts, run inside the caller's transaction), and the actions people take by hand
 * (actions.ts). The states themselves are in src/call-model.
 */
export { acknowledgeAlert, markUnacknowledged, resolveAlert, settleAlerts, cancelWaitingCalls, type AlertLifecycleDeps, type CloseResult } from './lifecycle';
export { createAlertActions, resolveOpenAlertByKey, type AlertActions, type AlertActionResult, type AlertActionsDeps } from './actions';
