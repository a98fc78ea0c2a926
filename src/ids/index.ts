/**
 * Ids (`acc_…`, `call_…`, `alt_…`) and random tokens (keys, session ids, lease owners): a leaf
 * every folder may import (test/layout/source-layout.test.ts), since the store makes ids and
 * so do the loops that claim leases and the panel's sessions. Imports nothing of ours.
 */

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
// In byte order, so that text comparison (SQLite BINARY) sorts time prefixes by time.
const SORTABLE = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

// Random bytes are drawn 4 KiB at a time: one randomBytes() per id was a syscall-sized
// cost on every accepted request. The pool is CSPRNG output all the same, used once.
// Web Crypto's getRandomValues, not node:crypto's randomFillSync: the same generator, and
// every CLI command makes ids, where loading node:crypto cost ~15 ms of its start
// (docs/development.md "The suite's length").
const pool = Buffer.alloc(4096);
let poolAt = pool.length;

function randomByte(): number {
  if (poolAt === pool.length) {
    crypto.getRandomValues(pool);
    poolAt = 0;
  }
  return pool[poolAt++]!;
}

/** Random base62 text; `length` characters carry ~5.95 bits each. */
export function randomToken(length: number): string {
  let out = '';
  while (out.length < length) {
    const b = randomByte();
    if (b < 248) out += ALPHABET[b % 62]; // 248 = 4*62: reject the tail so every symbol is equally likely
  }
  return out;
}

/** Characters of the time prefix: 62^7 ms reaches the year 2081. */
const TIME_CHARS = 7;

/**
 * Ids carry their kind: `acc_…`, `cred_…`, `call_…`; 20 characters after the prefix.
 * The first 7 are the creation time in milliseconds (sortable base62), the other 13
 * random (77 bits). Time-ordered ids land at the right end of the primary-key index:
 * with random ids every queued call dirtied a different B-tree page, and each group
 * commit wrote (and fsynced) all of them to the WAL; inserting calls cost ~12% of the
 * intake's time in a profile under load.
 */
export function newId(prefix: 'acc' | 'cred' | 'call' | 'alt' | 'pol' | 'evt' | 'sch' | 'ovr' | 'mw' | 'hb' | 'st' | 'per' | 'hof', now: number = Date.now()): string {
  return `${prefix}_${timePrefix(Math.max(0, Math.floor(now)))}${randomToken(20 - TIME_CHARS)}`;
}

// Requests queued in the same millisecond share the prefix: computed once.
let lastMs = -1;
let lastPrefix = '';

function timePrefix(ms: number): string {
  if (ms !== lastMs) {
    let time = '';
    let t = ms;
    for (let i = 0; i < TIME_CHARS; i++) {
      time = SORTABLE[t % 62] + time;
      t = Math.floor(t / 62);
    }
    lastMs = ms;
    lastPrefix = time;
  }
  return lastPrefix;
}
