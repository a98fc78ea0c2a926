/**
 * Hand-off calls (docs/on-call.md "Hand-off calls"): the incoming person of a schedule with
 * `handoff_call` is asked to press 1 at each hand-off; unconfirmed, the outgoing person is
 * called with an alert `handoff:<schedule>`.
 */
export { createHandoffLoop, type HandoffLoop, type HandoffLoopDeps } from './loop';
export { HANDOFF_TIMING, type HandoffTiming } from './timing';
export { confirmHandoff } from './confirm';
export { handoffAlertKey, handoffAlertMessage, type HandoffLanguage } from './words';
