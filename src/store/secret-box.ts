import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Encrypts stored secrets under a 256-bit key kept in a file beside the database
 * (mode 0600), so the database file alone reveals no API secret or webhook key.
 * AES-256-GCM; a stored blob is iv(12) | tag(16) | ciphertext.
 *
 * node:crypto is required when a secret is sealed or opened, not imported above: every CLI
 * command opens the store, most never touch a secret, and loading node:crypto cost ~15 ms of
 * a command's start (docs/development.md "The suite's length"). Random bytes come from Web
 * Crypto's getRandomValues, the same generator.
 */
export interface SecretBox {
  seal(plain: string): Uint8Array;
  open(sealed: Uint8Array): string;
}

const randomBytes = (n: number) => crypto.getRandomValues(Buffer.alloc(n));
const nodeCrypto = () => require('node:crypto') as typeof import('node:crypto');

export function loadOrCreateKeyFile(path: string): Buffer {
  if (existsSync(path)) {
    const key = readFileSync(path);
    if (key.length !== 32) throw new Error(`key file ${path} is damaged (expected 32 bytes, found ${key.length})`);
    if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
    return key;
  }
  mkdirSync(dirname(path), { recursive: true });
  const key = randomBytes(32);
  // 'wx' fails if another process created it meanwhile; then use theirs.
  try {
    writeFileSync(path, key, { mode: 0o600, flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return loadOrCreateKeyFile(path);
    throw e;
  }
  return key;
}

export function createSecretBox(key: Buffer): SecretBox {
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = nodeCrypto().createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    open(sealed) {
      const buf = Buffer.from(sealed);
      const decipher = nodeCrypto().createDecipheriv('aes-256-gcm', key, buf.subarray(0, 12));
      decipher.setAuthTag(buf.subarray(12, 28));
      return Buffer.concat([decipher.update(buf.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

