/**
 * Every JSON the outside world sees, built in one place (API answers, callback bodies, CLI
 * `--json`): fields may be added, never renamed (README "HTTP API"). Imports only the store's
 * records, so any folder above may speak it.
 */
export { iso } from './iso';
export { callbackCallJson, callListJson, callStatusJson, callStatusOf, ownCallStatus, type CallStatus } from './call-json';
export { alertJson, callbackAlertJson, ownAlertJson, type AlertJson } from './alert-json';
export { callbackBody, type CallbackHead } from './callback-body';
export { policyJson } from './policy-json';
export { maintenanceJson, windowState } from './maintenance-json';
export { heartbeatJson, heartbeatState } from './heartbeat-json';
export { selfTestJson } from './self-test-json';
export { oncallJson, overrideJson, scheduleJson } from './schedule-json';
