/**
 * Escalation (docs/on-call.md "Escalation: call until someone presses 1"): policies per account,
 * and the engine that calls step after step until someone presses 1, from a durable schedule in
 * the store.
 */
export { createEscalationEngine, type EscalationEngine, type EscalationEngineDeps } from './engine';
export { createPoliciesService, policyInput, type PoliciesService, type PolicyInput, type PolicyInUse, type PolicyResult } from './policies';
export { beginEscalation, escalationPlan, FIRST_STEP_ORDINAL } from './start';
export { routeFrom, type Route } from './route';
export { fallbackNumber, fallbackTarget, nobodyWarning, recordUnroutable } from './unroutable';
