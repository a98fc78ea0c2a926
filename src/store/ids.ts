import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Random base62 text; `length` characters carry ~5.95 bits each. */
export function randomToken(length: number): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; out.length < length && i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b < 248) out += ALPHABET[b % 62]; // 248 = 4*62: reject the tail so every symbol is equally likely
  }
  return out.length === length ? out : randomToken(length);
}

/** Ids carry their kind: `acc_…`, `cred_…`, `call_…`. */
export function newId(prefix: 'acc' | 'cred' | 'call'): string {
  return `${prefix}_${randomToken(20)}`;
}
