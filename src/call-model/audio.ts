/**
 * What a call plays, ready for RTP: 8 kHz G.711 in both laws, so the dialer sends
 * whichever codec the far end's answer picked. 160 bytes = one 20 ms packet.
 * Produced by the speech renderer (src/tts), consumed by the dialer (src/sip, src/calls).
 */
export interface CallAudio {
  pcmu: Uint8Array;
  pcma: Uint8Array;
  durationMs: number;
}

/** Where a call stands, for what the callee hears first. */
export interface CallContext {
  /** The escalation step placing the call, counted from 1 across rounds; above 1 it is said. */
  escalationOrdinal?: number;
  /**
   * The language of the person called (docs/on-call.md "People"): the words around the alert
   * text, the keypad prompt, the confirmation and the voice; absent: the configured one.
   */
  language?: 'tr' | 'en';
}

export interface CallAudioSource {
  /** The whole call as spoken: intro, the message `calls.repeat` times with pauses, the keypad prompt. */
  forMessage(message: string, context?: CallContext): Promise<CallAudio>;
  /**
   * Several alerts for one number in one call ("3 alarm. Birinci: … İkinci: …"), each named;
   * kept under calls.max_call_s by shortening each to its first sentence when needed.
   */
  forBundle(messages: string[], context?: CallContext): Promise<CallAudio>;
  /**
   * The short confirmation played after the callee pressed 1; with `by`, it says that this
   * number is recorded as the one acknowledging.
   */
  acknowledged(by?: string, context?: CallContext): Promise<CallAudio>;
  /**
   * What is left on a voicemail (docs/telephony.md "Voicemail detection"): the intro, the
   * alerts once, and a last sentence saying it was left on a voicemail instead of the keypad
   * prompt. Absent (test sources): the call's own message is left.
   */
  forVoicemail?(messages: string[], context?: CallContext): Promise<CallAudio>;
  /**
   * A verification call (docs/on-call.md "Verification"): who the number is checked for,
   * `calls.repeat` times, then "press 1 to confirm"; `confirmed`: what follows the 1. Absent
   * (test sources): the call's own message is spoken and the usual confirmation follows.
   */
  forVerification?(name: string, context?: CallContext): Promise<CallAudio>;
  verified?(context?: CallContext): Promise<CallAudio>;
  /**
   * A hand-off call (docs/on-call.md "Hand-off calls"): the schedule and until when (local
   * time in `timeZone`; null: no end known), `calls.repeat` times, then "press 1";
   * `handoffConfirmed`: what follows the 1. Absent (test sources): the call's own message.
   */
  forHandoff?(h: { schedule: string; until: number | null; timeZone: string }, context?: CallContext): Promise<CallAudio>;
  handoffConfirmed?(context?: CallContext): Promise<CallAudio>;
}
