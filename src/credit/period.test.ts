import { describe, expect, it } from 'vitest';
import { nextResetAt, periodOf } from './period';

describe('credit period', () => {
  it('changes at 00:00 on the 1st in the configured zone', () => {
    expect(periodOf(Date.parse('2026-11-30T20:59:59Z'), 'Europe/Istanbul')).toBe('2026-11');
    expect(periodOf(Date.parse('2026-11-30T21:00:00Z'), 'Europe/Istanbul')).toBe('2026-12');
    expect(periodOf(Date.parse('2026-12-31T23:59:59Z'), 'UTC')).toBe('2026-12');
    expect(periodOf(Date.parse('2027-01-01T00:00:00Z'), 'UTC')).toBe('2027-01');
  });

  it('tells when the next period starts', () => {
    expect(new Date(nextResetAt(Date.parse('2026-11-15T12:00:00Z'), 'Europe/Istanbul')).toISOString()).toBe(
      '2026-11-30T21:00:00.000Z',
    );
    expect(new Date(nextResetAt(Date.parse('2027-02-01T00:00:00Z'), 'UTC')).toISOString()).toBe('2027-03-01T00:00:00.000Z');
  });
});
