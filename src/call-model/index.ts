/**
 * The vocabulary of calls and alerts: states and their legal edges, how an attempt ended,
 * and the audio a call plays. A leaf: it imports nothing of ours, so store/, tts/, sip/ and calls/ can all
 * speak it without importing each other.
 */
export * from './states';
export * from './alert-states';
export { isSuppressed } from './suppressed';
export { AMD_REASONS, ANSWERED_BY, type AmdReason, type AnsweredBy } from './answered-by';
export type { CallAudio, CallAudioSource, CallContext } from './audio';
export type { CallOutcome, CallProgress } from './outcome';
export { describeOutcome, trunkSilence, TRUNK_DID_NOT_ANSWER } from './describe-outcome';
