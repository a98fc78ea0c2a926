import { randomInt } from 'node:crypto';

/** Digits in a PIN `desk pin` makes: 10^8 choices, entered in a few seconds on a keypad. */
export const PIN_DIGITS = 8;
/** A PIN entry longer than this is wrong whatever it holds (no hash is computed for it). */
export const MAX_PIN_LENGTH = 16;

/** A fresh random PIN (uniform digits from the system's CSPRNG). */
export function newPin(): string {
  let pin = '';
  for (let i = 0; i < PIN_DIGITS; i++) pin += String(randomInt(10));
  return pin;
}

/**
 * The PIN as stored: a salted Argon2id hash (Bun.password, PHC string), so a copy of the
 * database does not give the PINs away without a costly search per account.
 */
export function hashPin(pin: string): Promise<string> {
  return Bun.password.hash(pin, { algorithm: 'argon2id', memoryCost: 19_456, timeCost: 2 });
}

/** Checks an entry against a stored hash, off the event loop (Bun runs it on a thread pool). */
export async function pinMatches(entry: string, hash: string): Promise<boolean> {
  if (!/^\d{1,16}$/.test(entry)) return false;
  try {
    return await Bun.password.verify(entry, hash);
  } catch {
    return false; // a hash this build cannot read is no match
  }
}
