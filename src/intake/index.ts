export { acceptApiCall } from './accept-api-call';
export { acceptWebhook, MAX_WEBHOOK_NUMBERS } from './accept-webhook';
export type { IntakeDeps, IntakeRequest } from './deps';
export type { Outcome, IntakeResult, IntakeEndpoint } from './outcome';
export { sign, verifySignature, SIGNATURE_TOLERANCE_S } from './signature';
export { MAX_MESSAGE_CODE_POINTS } from './message';
