import { randomToken } from '../ids';

/** Shortest password accepted for a panel user. */
export const MIN_PASSWORD_LENGTH = 10;

/** argon2id through Bun.password, its defaults (64 MiB, t=2) as the cost. */
export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, { algorithm: 'argon2id' });
}

// Verified against when the login is unknown, so an unknown name costs the same time
// as a wrong password and the answer time does not reveal which names exist.
let decoy: Promise<string> | undefined;

export async function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  if (hash === null) {
    decoy ??= hashPassword(randomToken(24));
    await Bun.password.verify(password, await decoy);
    return false;
  }
  try {
    return await Bun.password.verify(password, hash);
  } catch {
    return false; // a malformed stored hash is a failed login, not a crash
  }
}

/** Why a new password is refused, or null when it is acceptable. */
export function passwordProblem(password: string): 'TOO_SHORT' | null {
  return [...password].length < MIN_PASSWORD_LENGTH ? 'TOO_SHORT' : null;
}

/** A password for an owner when none was given: 20 base62 characters (~119 bits). */
export function generatePassword(): string {
  return randomToken(20);
}
