import { describe, expect, it } from 'vitest';
import { normalizePhoneNumber, numberFormOf, phoneSearchDigits, splitPhoneNumbers } from './number';

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

describe('numbers.accept forms', () => {
  const all = ['tr-mobile', 'tr-landline', 'e164', 'extension'] as const;
  it.each([
    ['0212 555 12 12', ['tr-landline'], '02125551212'],
    ['+90 212 555 12 12', ['tr-landline'], '02125551212'],
    ['+1 (415) 555-2671', ['e164'], '+14155552671'],
    ['+905321234567', ['e164'], '+905321234567'],
    ['+905321234567', all, '5321234567'],
    ['1234', ['extension'], '1234'],
    ['123', ['extension'], '123'],
    ['123456', ['extension'], '123456'],
  ] as const)('%j with %j is %s', (raw, accept, want) => expect(normalizePhoneNumber(raw, accept)).toBe(want));

  it.each([
    ['02125551212', ['tr-mobile']],
    ['1234', ['tr-mobile', 'tr-landline', 'e164']],
    ['12', ['extension']],
    ['1234567', ['extension']],
    ['+1234567', ['e164']],
    ['+1234567890123456', ['e164']],
    ['05321234567', ['tr-landline', 'e164', 'extension']],
    ['0512 555 12 12', ['tr-landline']],
  ] as const)('refuses %j with %j', (raw, accept) => expect(normalizePhoneNumber(raw, accept)).toBeNull());

  it('tells each stored form apart, so the dialer knows an extension', () => {
    expect(numberFormOf('5321234567')).toBe('tr-mobile');
    expect(numberFormOf('02125551212')).toBe('tr-landline');
    expect(numberFormOf('+14155552671')).toBe('e164');
    expect(numberFormOf('1234')).toBe('extension');
    expect(numberFormOf('x')).toBeNull();
  });
});
