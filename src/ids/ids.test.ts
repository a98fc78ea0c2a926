import { describe, expect, it } from 'vitest';
import { newId, randomToken } from '.';

describe('ids', () => {
  it('keep their shape: prefix, 20 base62 characters', () => {
    expect(newId('call')).toMatch(/^call_[0-9A-Za-z]{20}$/);
    expect(newId('acc')).toMatch(/^acc_[0-9A-Za-z]{20}$/);
    expect(randomToken(43)).toMatch(/^[0-9A-Za-z]{43}$/);
  });

  it('sort by creation time as plain text, so inserts append to the primary-key index', () => {
    const times = [0, 61, 62, 1_000_000, Date.parse('2026-11-21T00:00:00Z'), Date.parse('2080-01-01T00:00:00Z')];
    const ids = times.map((t) => newId('call', t));
    expect([...ids].sort()).toEqual(ids);
  });

  it('do not repeat within one millisecond', () => {
    const now = Date.now();
    const ids = new Set(Array.from({ length: 20_000 }, () => newId('call', now)));
    expect(ids.size).toBe(20_000);
  });
});
