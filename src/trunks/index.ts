/**
 * The SIP trunks (docs/telephony.md "SIP trunks: several, in order"): every configured trunk with its own
 * user agent, socket and OPTIONS monitor (trunk-set.ts, trunk-monitor.ts), which trunk a number
 * goes to and what counts as a trunk's failure (trunk-route.ts, pure), and the status that
 * /healthz, /metrics, the panel and `doctor` read (trunk-status.ts). The dialer (calls/) dials
 * through a TrunkSet; nothing here knows calls' lifecycle.
 */
export { createTrunkSet, type TrunkSet, type TrunkSetDeps, type TrunkEntryStatus, type TextOutcome } from './trunk-set';
export type { TrunkProbeStatus, TrunkState } from './trunk-monitor';
export { isTrunkFailure, trunkOrder } from './trunk-route';
export { aggregateStatus, checkTrunkStates, type TrunkStatus } from './trunk-status';
