/**
 * Phone numbers as docs/http-api.md "Numbers" reads them: separators (space, dash, dot,
 * parentheses) are ignored; `5xxxxxxxxx`, `05xxxxxxxxx`, `905xxxxxxxxx` and `+905xxxxxxxxx` all
 * mean the same 10-digit mobile number, which is what is stored and dialed.
 */
const SEPARATORS = /[\s\-.()]/g;
const FORMS = /^(?:\+90|90|0)?(5\d{9})$/;

/** The forms `numbers.accept` may list (docs/operations.md "Configuration"). */
export const NUMBER_FORMS = ['tr-mobile', 'tr-landline', 'e164', 'extension'] as const;
export type NumberForm = (typeof NUMBER_FORMS)[number];
export const DEFAULT_NUMBER_FORMS: readonly NumberForm[] = ['tr-mobile'];

/**
 * Each form as stored. The stored strings of different forms never look alike (10 digits
 * starting 5; 0 + 10 digits; + and digits; 3–6 digits), so `numberFormOf` can tell a stored
 * number's form without a column: the dialer uses it to dial extensions without `sip.dial_prefix`.
 */
const STORED: Record<NumberForm, RegExp> = {
  'tr-mobile': /^5\d{9}$/,
  'tr-landline': /^0[2-4]\d{9}$/,
  e164: /^\+[1-9]\d{7,14}$/,
  extension: /^\d{3,6}$/,
};

/**
 * The stored form of `raw`, or null when it is not valid in any accepted form.
 * tr-mobile is tried first so `+905…` stays the 10-digit mobile even when e164 is accepted.
 */
export function normalizePhoneNumber(raw: string, accept: readonly NumberForm[] = DEFAULT_NUMBER_FORMS): string | null {
  const compact = raw.replace(SEPARATORS, '');
  if (accept.includes('tr-mobile')) {
    const m = FORMS.exec(compact);
    if (m) return m[1]!;
  }
  // Area code first, written with its trunk 0: 0212 555 12 12 (also +90/90 212… on the wire).
  if (accept.includes('tr-landline')) {
    const m = /^(?:\+90|90|0)([2-4]\d{9})$/.exec(compact);
    if (m) return `0${m[1]}`;
  }
  if (accept.includes('e164') && STORED.e164.test(compact)) return compact;
  if (accept.includes('extension') && STORED.extension.test(compact)) return compact;
  return null;
}

/** The form of a stored number (what normalizePhoneNumber returned), or null for anything else. */
export function numberFormOf(stored: string): NumberForm | null {
  return NUMBER_FORMS.find((f) => STORED[f].test(stored)) ?? null;
}

/**
 * Digits to search stored numbers by, from part of a number as a person types it:
 * separators dropped, and a leading 0 / 90 before the 5 removed, since stored numbers
 * are the 10-digit form.
 */
export function phoneSearchDigits(raw: string): string {
  return raw.replace(/\D/g, '').replace(/^(?:90|0)(?=5)/, '');
}

/**
 * Splits a webhook's phone_number: a comma-separated string or an array of strings
 * (numbers are read as their digits; anything else as its JSON, so it is reported as
 * invalid rather than silently dropped). Empty entries are dropped; values are trimmed.
 */
export function splitPhoneNumbers(value: unknown): string[] {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [value];
  return items
    .map((v) => {
      if (typeof v === 'string') return v.trim();
      if (typeof v === 'number') return String(v);
      return v === null || v === undefined ? '' : JSON.stringify(v);
    })
    .filter((v) => v !== '');
}
