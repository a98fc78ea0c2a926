import { describe, expect, it } from 'vitest';
import { normalizePhoneNumber, phoneSearchDigits, splitPhoneNumbers } from './number';

describe('normalizePhoneNumber', () => {
  it.each([
    ['5321234567', '5321234567'],
    ['05321234567', '5321234567'],
    ['905321234567', '5321234567'],
    ['+905321234567', '5321234567'],
    ['+90 (532) 123-45.67', '5321234567'],
    [' 0532 123 45 67 ', '5321234567'],
  ])('accepts %j as %s', (raw, want) => expect(normalizePhoneNumber(raw)).toBe(want));

  it.each(['4321234567', '532123456', '53212345678', '+15321234567', '0090532123456', 'abc', '', '5321234567x', '+5321234567'])(
    'refuses %j',
    (raw) => expect(normalizePhoneNumber(raw)).toBeNull(),
  );
});

describe('splitPhoneNumbers', () => {
  it('splits on commas, trims, drops empty entries', () => {
    expect(splitPhoneNumbers(' 5321234567 ,05321234568,, ')).toEqual(['5321234567', '05321234568']);
  });
  it('takes arrays and reads JSON numbers as their digits', () => {
    expect(splitPhoneNumbers(['5321234567', 5321234568])).toEqual(['5321234567', '5321234568']);
    expect(splitPhoneNumbers(5321234567)).toEqual(['5321234567']);
  });
  it('keeps odd array items so they are reported, not dropped', () => {
    expect(splitPhoneNumbers([{ n: 1 }])).toEqual(['{"n":1}']);
  });
  it('is empty for absent values', () => {
    expect(splitPhoneNumbers(undefined)).toEqual([]);
    expect(splitPhoneNumbers('')).toEqual([]);
  });
});

describe('phoneSearchDigits', () => {
  it.each([
    ['0555 999', '555999'],
    ['+90 532', '532'],
    ['(532) 12', '53212'],
    ['123', '123'],
  ])('reads %j as %s', (raw, want) => expect(phoneSearchDigits(raw)).toBe(want));
});
