/**
 * Phone numbers as the contract reads them: separators (space, dash, dot, parentheses)
 * are ignored; `5xxxxxxxxx`, `05xxxxxxxxx`, `905xxxxxxxxx` and `+905xxxxxxxxx` all
 * mean the same 10-digit mobile number, which is what is stored and dialed.
 */
const SEPARATORS = /[\s\-.()]/g;
const FORMS = /^(?:\+90|90|0)?(5\d{9})$/;

/** The 10-digit form, or null when `raw` is not a valid number. */
export function normalizePhoneNumber(raw: string): string | null {
  const m = FORMS.exec(raw.replace(SEPARATORS, ''));
  return m ? m[1]! : null;
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
