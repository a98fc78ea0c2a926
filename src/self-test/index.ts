/**
 * The voice-path self-test (docs/telephony.md "Voice-path self-test"): a call to a PBX number
 * through one trunk that plays a known signal (signal.ts) and checks the answer, our RTP and the
 * echo (verdict.ts, src/sip/rtp/echo-check.ts); one run stored with its callbacks (run.ts); the
 * server's schedule, claimed row by row, and the trunk marks that follow results (scheduler.ts).
 */
export { runSelfTest, type SelfTestRunDeps, type SelfTestRunOptions } from './run';
export { createSelfTestScheduler, LOOK_EVERY_MS, type SelfTestScheduler, type SelfTestSchedulerDeps } from './scheduler';
export { judge, ECHO_MIN_RATIO, type SelfTestExpect, type SelfTestVerdict } from './verdict';
export { selfTestSignal, signalFrames } from './signal';
export { createSelfTestRequests, type RunRequest, type SelfTestRequests } from './requests';
