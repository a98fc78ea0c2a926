/**
 * Keypad digits from RFC 4733 §2.3 telephone-event payloads: event(8) | E R volume(6) |
 * duration(16). One key press is many packets with the same RTP timestamp (and three
 * end packets), so a digit is reported once per timestamp.
 */
const EVENTS = '0123456789*#ABCD';

export function eventDigit(payload: Uint8Array): string | null {
  if (payload.length < 4) return null;
  return EVENTS[payload[0]!] ?? null;
}

export interface DtmfDetector {
  /** Feeds one telephone-event packet; returns the digit when it starts a new press. */
  push(timestamp: number, payload: Uint8Array): string | null;
}

export function createDtmfDetector(): DtmfDetector {
  let lastTimestamp: number | null = null;
  return {
    push(timestamp, payload) {
      const digit = eventDigit(payload);
      if (digit === null || timestamp === lastTimestamp) return null;
      lastTimestamp = timestamp;
      return digit;
    },
  };
}

/** `application/dtmf-relay` INFO bodies ("Signal=1\r\nDuration=160"), as sent by Asterisk and others. */
export function infoDigit(contentType: string, body: string): string | null {
  if (/dtmf-relay/i.test(contentType)) return /Signal\s*=\s*([0-9*#A-D])/i.exec(body)?.[1]?.toUpperCase() ?? null;
  if (/application\/dtmf/i.test(contentType)) return /^\s*([0-9*#A-D])\s*$/i.exec(body)?.[1]?.toUpperCase() ?? null;
  return null;
}
