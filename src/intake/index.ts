export { acceptApiCall } from './accept-api-call';
export { acceptWebhook, MAX_WEBHOOK_NUMBERS } from './accept-webhook';
export { authenticate, type Authentication, type Presented } from './authenticate';
export { authorize, type Authorization, type AuthorizationRefusal } from './authorize';
export type { IntakeDeps, IntakeRequest } from './deps';
export { lookupsFor } from './lookup-cache';
export type { Outcome, IntakeResult, IntakeEndpoint, IntakeRefusal } from './outcome';
export { MAX_MESSAGE_CODE_POINTS } from './message';
