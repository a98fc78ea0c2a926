/**
 * Heartbeats, a dead man's switch (docs/on-call.md "Heartbeats"): ping URLs (service.ts), the
 * deadline checker that raises a late heartbeat's alert through the intake (checker.ts), and
 * the default alert text (words.ts).
 */
export { createHeartbeatService, heartbeatAlertKey, pingPath, type HeartbeatService, type HeartbeatInput, type HeartbeatProblem, type PingResult } from './service';
export { createHeartbeatChecker, CHECK_EVERY_MS, type HeartbeatChecker, type HeartbeatCheckerDeps } from './checker';
export { defaultHeartbeatMessage, type HeartbeatLanguage } from './words';
