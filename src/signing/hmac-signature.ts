import { createHmac, timingSafeEqual } from 'node:crypto';

/** Signed requests older than this (seconds) are refused: docs/http-api.md "Optional HMAC signing". */
export const SIGNATURE_TOLERANCE_S = 300;
/**
 * ... and newer than this: a clock a little ahead is normal, a timestamp far ahead would
 * stretch how long a captured request stays valid (docs/http-api.md "Optional HMAC signing").
 */
export const SIGNATURE_FUTURE_S = 30;

export interface SignatureHeaders {
  timestamp: string | null;
  signature: string | null;
}

/** `sha256=` + hex HMAC-SHA256 over `<timestamp>.<raw body>`. Also what clients compute. */
export function sign(key: string, timestamp: string, body: Uint8Array): string {
  const mac = createHmac('sha256', key);
  mac.update(`${timestamp}.`);
  mac.update(body);
  return `sha256=${mac.digest('hex')}`;
}

/** A request counts as signed when it carries X-Signature. */
export function isSigned(h: SignatureHeaders): boolean {
  return h.signature !== null && h.signature !== '';
}

export function verifySignature(key: string, h: SignatureHeaders, body: Uint8Array, nowMs: number): boolean {
  if (!h.signature || !h.timestamp || !/^\d{1,12}$/.test(h.timestamp)) return false;
  const age = nowMs / 1000 - Number(h.timestamp);
  if (age > SIGNATURE_TOLERANCE_S || age < -SIGNATURE_FUTURE_S) return false;
  const expected = Buffer.from(sign(key, h.timestamp, body));
  const given = Buffer.from(h.signature.trim().toLowerCase());
  return expected.length === given.length && timingSafeEqual(expected, given);
}
