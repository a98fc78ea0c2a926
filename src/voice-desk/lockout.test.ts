import { describe, expect, it } from 'vitest';
import { manualClock } from '../../test/helpers/memory-store';
import { createLockout } from './lockout';

describe('voice desk lock-out', () => {
  it('the 11th wrong PIN within a minute locks that trunk for 5 minutes; other trunks stay open', () => {
    const clock = manualClock();
    const l = createLockout({ threshold: 10, windowMs: 60_000, lockMs: 300_000, clock });
    for (let i = 0; i < 10; i++) {
      expect(l.wrongPin('pbx')).toBe(false);
      clock.advance(5000);
    }
    expect(l.lockedUntil('pbx')).toBeNull();
    expect(l.wrongPin('pbx')).toBe(true);
    const until = l.lockedUntil('pbx');
    expect(until).toBe(clock() + 300_000);
    expect(l.lockedUntil('carrier')).toBeNull();
    // Wrong PINs while locked (a call already in progress) do not lock again or extend it.
    expect(l.wrongPin('pbx')).toBe(false);
    clock.advance(299_999);
    expect(l.lockedUntil('pbx')).toBe(until);
    clock.advance(1);
    expect(l.lockedUntil('pbx')).toBeNull();
  });

  it('wrong PINs spread over more than the window never lock', () => {
    const clock = manualClock();
    const l = createLockout({ threshold: 10, windowMs: 60_000, lockMs: 300_000, clock });
    for (let i = 0; i < 50; i++) {
      expect(l.wrongPin('pbx')).toBe(false);
      clock.advance(6001);
    }
    expect(l.lockedUntil('pbx')).toBeNull();
  });
});
