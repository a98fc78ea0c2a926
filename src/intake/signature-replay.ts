import { SIGNATURE_TOLERANCE_S } from './signature';

/**
 * The signatures already accepted, for as long as their timestamp stays within the
 * tolerance (issue 10 §6: one signed request sent three times queued and charged three
 * calls). After that the timestamp alone refuses a replay, so nothing older is kept.
 *
 * In memory: right for one appliance per database. Several appliances sharing one database
 * (store.url, PostgreSQL) would each accept a replay once; they would need this in the store.
 */
export interface ReplayMemory {
  /** True the first time (and remembers it); false for a signature seen before. */
  firstUse(credentialId: string, signature: string, timestampS: number, nowMs: number): boolean;
  size(): number;
}

/** Expired entries are dropped every this many insertions: amortised O(1), memory bounded by the rate. */
const SWEEP_EVERY = 1024;

export function createReplayMemory(): ReplayMemory {
  const seen = new Map<string, number>(); // key -> unix ms after which the timestamp is refused anyway
  let inserts = 0;
  return {
    firstUse(credentialId, signature, timestampS, nowMs) {
      const key = `${credentialId} ${signature.trim().toLowerCase()}`;
      const until = seen.get(key);
      if (until !== undefined && until >= nowMs) return false;
      seen.set(key, (timestampS + SIGNATURE_TOLERANCE_S) * 1000 + 1000);
      if (++inserts % SWEEP_EVERY === 0) for (const [k, t] of seen) if (t < nowMs) seen.delete(k);
      return true;
    },
    size: () => seen.size,
  };
}

const memories = new WeakMap<object, ReplayMemory>();

/** One memory per store (per appliance; each test's store has its own). */
export function replayMemoryFor(owner: object): ReplayMemory {
  let m = memories.get(owner);
  if (!m) memories.set(owner, (m = createReplayMemory()));
  return m;
}
