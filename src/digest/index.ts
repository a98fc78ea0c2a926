import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * How the appliance keeps high-entropy secrets it only needs to recognise (API secrets, webhook
 * keys, panel session tokens, heartbeat tokens): their SHA-256, enough to look one up or check
 * it, useless to someone who reads the database (docs/https.md "Security"). A leaf: the store keeps
 * digests, the intake and the heartbeats compute them.
 */
export function digest(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** Constant-time equality of two digests. */
export function sameDigest(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
