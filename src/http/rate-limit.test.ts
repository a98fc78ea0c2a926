import { describe, expect, it } from 'vitest';
import { manualClock } from '../../test/helpers/memory-store';
import { createRateLimiter } from './rate-limit';

describe('rate limiter', () => {
  it('allows 60 a minute per address, refuses the 61st with the seconds to wait', () => {
    const clock = manualClock(0);
    const rl = createRateLimiter(60, clock);
    for (let i = 0; i < 60; i++) {
      expect(rl.take('10.0.0.1')).toBeNull();
      clock.advance(500); // 60 requests over 30 s
    }
    expect(rl.take('10.0.0.1')).toBe(30); // the first one leaves the window at 60 s
    expect(rl.take('10.0.0.2')).toBeNull(); // another address has its own budget
    clock.advance(30_000);
    expect(rl.take('10.0.0.1')).toBeNull();
  });

  it('does not count refused requests, and 0 disables the limit', () => {
    const clock = manualClock(0);
    const rl = createRateLimiter(1, clock);
    expect(rl.take('a')).toBeNull();
    for (let i = 0; i < 5; i++) expect(rl.take('a')).toBe(60);
    clock.advance(60_000);
    expect(rl.take('a')).toBeNull();
    const off = createRateLimiter(0, clock);
    for (let i = 0; i < 1000; i++) expect(off.take('a')).toBeNull();
  });
});
