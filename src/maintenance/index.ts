/**
 * Maintenance windows (docs/on-call.md "Maintenance windows"): planned work during which an
 * account's matching alerts are stored but call nobody. The service (CLI, API, panel), the match
 * rules, the check the intake makes (suppress.ts) and the starter that cancels what a window covers
 * when it begins.
 */
export { createMaintenanceService, parseWindowInput, windowInput, type MaintenanceService, type WindowInput, type WindowResult, type MaintenanceRefusal } from './service';
export { createWindowStarter, START_POLL_MS, type WindowStarter, type WindowStarterDeps } from './starter';
export { matchesAlert, matchText, parseMatch, type AlertFacts, type Match } from './match';
export { startWindow, type WindowStart } from './start';
export { suppressingWindow } from './suppress';
