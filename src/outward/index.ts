/**
 * Every JSON the outside world sees, built in one place (API answers, callback bodies, CLI
 * `--json`): fields may be added, never renamed (docs/http-api.md). Imports only the store's
 * records (and call-model's vocabulary), so any folder above may speak it.
 */
export { iso } from './iso';
export { callbackCallJson, callListJson, callStatusJson, callStatusOf, ownCallStatus, type CallStatus } from './call-json';
export { alertJson, callbackAlertJson, ownAlertJson, type AlertJson } from './alert-json';
export { callbackBody, type CallbackHead } from './callback-body';
export { defaultPolicyJson, policyDeletedJson, policyJson } from './policy-json';
export { maintenanceDeletedJson, maintenanceJson, newMaintenanceJson, windowState } from './maintenance-json';
export { heartbeatChangeJson, heartbeatJson, heartbeatState, newHeartbeatJson } from './heartbeat-json';
export { selfTestJson } from './self-test-json';
export { oncallJson, overrideJson, scheduleDeletedJson, scheduleJson, scheduleWithOverridesJson } from './schedule-json';
export { personDeletedJson, personJson } from './person-json';
export { coverageJson, type ScheduleCoverageView } from './coverage-json';
export { alertActionJson } from './alert-action-json';
export { accountJson, newAccountJson } from './account-json';
export { fallbackJson } from './fallback-json';
export { callbackClearedJson, callbackSetJson } from './account-callback-json';
export { issuedKeysJson, keyJson, revokedKeyJson, rotatedWebhookJson, signatureJson, webhookUrl } from './keys-json';
export { creditJson } from './credit-json';
export { adminCreatedJson, adminJson, adminPasswordChangedJson, ownerJson, ownerPasswordJson } from './admin-json';
export { deskPinJson, deskPolicyJson } from './desk-json';
export { testCallJson } from './test-call-json';
export { doctorJson, type DoctorCheck } from './doctor-json';
export { migrateToPostgresJson } from './migrate-json';
export { backupJson, restoreJson } from './backup-json';
export { sayJson } from './say-json';
export { CHANGE_PROCESSED, invalidEvent, pagerDutyAnswer, type PagerDutyAnswer } from './pagerduty-json';
export { ACCEPTED, opsgenieAnswer, opsgenieJson, requestStatus, unprocessable, type OpsgenieAnswer, type RequestStatus } from './opsgenie-json';
export {
  ALERT_NOT_FOUND,
  PONG,
  heartbeatNotFound,
  invalidParameters,
  opsgenieAlertJson,
  opsgenieAlertListJson,
  opsgenieCountJson,
  opsgeniePaging,
} from './opsgenie-alert-json';
export type { CompatActionKind, CompatAnswerOutcome } from './compat-outcome';
