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

export interface CallAudioSource {
  /** The whole call as spoken: intro, the message `calls.repeat` times with pauses, the keypad prompt. */
  forMessage(message: string): Promise<CallAudio>;
  /**
   * Several alerts for one number in one call ("3 alarm. Birinci: … İkinci: …"), each named;
   * kept under calls.max_call_s by shortening each to its first sentence when needed.
   */
  forBundle(messages: string[]): Promise<CallAudio>;
  /** The short confirmation played after the callee pressed 1. */
  acknowledged(): Promise<CallAudio>;
}
