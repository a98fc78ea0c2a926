import type { Credential } from '../store';
import { digest, sameDigest } from '../digest';

/** Compares digests in constant time, so response timing says nothing about the secret. */
export function secretMatches(cred: Credential, secret: string): boolean {
  return sameDigest(cred.secretHash, digest(secret));
}
