import type { AmdReason, AnsweredBy } from './answered-by';

/**
 * How one attempt ended, as the SIP layer saw it. The SIP layer only reports: the call
 * lifecycle (src/calls/retry-policy.ts) alone decides what is final and what is retried.
 */
export type CallOutcome =
  /**
   * Answered and played once in full (the far end may have hung up during a repeat or the
   * confirmation), or cut short by us: calls.max_call_s, a stopping appliance.
   */
  | { code: 'COMPLETED'; status: 200; reason: string; remoteHangup: boolean }
  /**
   * Answered, but the far end ended the call (its BYE: a hang-up, a PBX's session timer)
   * before the message was played once in full: nobody can have heard it.
   */
  | { code: 'INTERRUPTED'; status: 200; reason: string }
  /**
   * A voicemail answered and the message was left on it (`[amd] on_machine = "leave_message"`):
   * final, and not acknowledged (docs/telephony.md "Voicemail detection").
   */
  | { code: 'VOICEMAIL'; status: 200; reason: string }
  /** Answered and the callee pressed 1. */
  | { code: 'ACKNOWLEDGED'; status: 200; reason: string }
  /** Answered and the callee pressed 3: not me, call the next step of the escalation now. */
  | { code: 'PASSED'; status: 200; reason: string }
  /**
   * A final non-2xx to the INVITE: the far end's or the PBX's answer, or a local 408 timeout.
   * `retryAfterS`: the response's Retry-After in seconds (RFC 3261 §20.33), when it had one.
   * `local`: made up on our side, nothing came from the trunk (Timer B's 408, a transport
   * error's 503): a trunk failure (src/trunks/trunk-route.ts).
   */
  | { code: 'SIP_FINAL'; status: number; reason: string; retryAfterS?: number; local?: true }
  /**
   * Rang for calls.ring_timeout_s, then we sent CANCEL. `silent`: not even a 100 Trying came
   * back, by the ring timeout or sip.invite_timeout_s (the trunk, not the callee, did not
   * answer; no CANCEL goes out until something does, RFC 3261 §9.1).
   */
  | { code: 'NO_ANSWER'; status: 487; reason: string; silent?: true }
  /** The request could not be sent, or media could not be set up. */
  | { code: 'NETWORK' | 'MEDIA'; status: null; reason: string }
  /** The message could not be rendered; `errorCode` is the renderer's own (e.g. EMPTY_TEXT). */
  | { code: 'AUDIO'; status: null; reason: string; errorCode: string | null }
  /** Stopped by our own shutdown before the answer (CANCEL sent): back to the queue. */
  | { code: 'ABORTED'; status: null; reason: string };

/** Things the lifecycle records as they happen during one attempt. */
export interface CallProgress {
  /** First 180/183: the phone rings. */
  ringing(status: number, reason: string): void;
  /**
   * 200 OK to the INVITE, with the codec the answer picked and who answered: reported once
   * voicemail detection decided (docs/telephony.md "Voicemail detection"), or at once without it.
   */
  answered(codec: string, by: { answeredBy: AnsweredBy; amdReason: AmdReason | null }): void;
  digit(digit: string): void;
  /** The trunk the attempt goes out on now (several trunks: each one tried, in order). */
  trunk?(name: string): void;
}
