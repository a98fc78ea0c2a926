import type { Clock } from '../clock';

export interface LockoutOptions {
  /** More wrong PINs than this within `windowMs` lock the desk (voice_desk.lockout_threshold). */
  threshold: number;
  windowMs: number;
  lockMs: number;
  clock: Clock;
}

/**
 * docs/telephony.md "Voice desk": more than `threshold` wrong PINs within `windowMs` from one trunk
 * lock the desk for calls from that trunk for `lockMs`, so a PIN cannot be guessed by dialling
 * again and again. Kept in this appliance's memory: each appliance counts the calls it answers.
 */
export interface Lockout {
  /** Counts one wrong PIN; true when this one locked the desk (the caller logs and counts it). */
  wrongPin(trunk: string): boolean;
  /** When the desk is locked for this trunk, until when (ms); else null. */
  lockedUntil(trunk: string): number | null;
}

export function createLockout(o: LockoutOptions): Lockout {
  const wrong = new Map<string, number[]>();
  const locked = new Map<string, number>();
  const lockedUntil = (trunk: string) => {
    const until = locked.get(trunk);
    if (until === undefined) return null;
    if (until > o.clock()) return until;
    locked.delete(trunk);
    return null;
  };
  return {
    lockedUntil,
    wrongPin(trunk) {
      const now = o.clock();
      const recent = (wrong.get(trunk) ?? []).filter((t) => t > now - o.windowMs);
      recent.push(now);
      wrong.set(trunk, recent);
      if (recent.length <= o.threshold || lockedUntil(trunk) !== null) return false;
      locked.set(trunk, now + o.lockMs);
      wrong.set(trunk, []);
      return true;
    },
  };
}
