/**
 * The SIP trunk, as the rest of the appliance sees it: start it, dial through it, stop it.
 *
 *   ua/         the user agent: telephone (the trunk), registration, one call attempt
 *               (its state machine and message player) and the media handler for sip.js
 *   transport/  UDP and TCP under sip.js, and every sip.js behaviour we correct on the wire
 *               (the list is in transport/index.ts)
 *   rtp/        media: the RTP worker thread, pacing, SDP, DTMF
 *
 * Callers import from here only. sip/ reports what happened (CallOutcome); it never decides
 * or retries a call (src/calls does) and never imports calls/, http/, panel/ or cli/.
 */
export { createTelephone, type DialRequest, type Telephone, type TelephoneDeps } from './ua/telephone';
export type { MediaCounts } from './rtp/media-counters';
export type { MediaReport, EchoCounts } from './rtp/echo-check';
export type { MediaCheck } from './ua/place-call';
export type { AmdRequest } from './ua/answer-analysis';
export { createRtpEngine, type RtpEngine } from './rtp/engine';
export { describeProbe, type ProbeResult } from './ua/options-probe';
export { SRTP_REQUIRED_REASON } from './ua/media-handler';
export type { InboundDesk, InboundOffer } from './ua/inbound';
export type { InboundSipText } from './ua/text-message';
export type { InboundCall, PromptEnd, TransferResult } from './ua/answer-call';
export type { URI as SipUri } from 'sip.js';
