/**
 * Voicemail detection (docs/telephony.md "Voicemail detection"): whether a person or a
 * mailbox answered, from the callee's decoded audio. Pure: frames in, verdicts out; the RTP
 * worker feeds it (sip/rtp/stream.ts).
 */
export { createAmdDetector, type AmdDetector, type AmdUpdate, type AmdVerdict } from './detector';
export type { AmdState } from './machine';
export { AMD_DEFAULTS, MAILBOX_WAIT_MS, type AmdTimings } from './options';
