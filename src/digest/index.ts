/**
 * How the appliance keeps high-entropy secrets it only needs to recognise (API secrets, webhook
 * keys, panel session tokens, heartbeat tokens): their SHA-256, enough to look one up or check
 * it, useless to someone who reads the database (docs/https.md "Security"). A leaf: the store keeps
 * digests, the intake and the heartbeats compute them.
 *
 * Bun's hasher and crypto.timingSafeEqual rather than node:crypto's, the same primitives: every
 * CLI command opens the store, which imports this, and loading node:crypto cost ~15 ms of its
 * start (docs/development.md "The suite's length").
 */
export function digest(secret: string): Buffer {
  return new Bun.CryptoHasher('sha256').update(secret, 'utf8').digest();
}

/** Constant-time equality of two digests. */
export function sameDigest(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}
