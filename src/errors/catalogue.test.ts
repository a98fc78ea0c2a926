import { describe, expect, it } from 'vitest';
import { ERRORS, errorBody, errorFor } from '.';

describe('error catalogue', () => {
  it('no two entries share a code', () => {
    const codes = ERRORS.map((e) => e.code);
    const repeated = codes.filter((c, i) => codes.indexOf(c) !== i);
    expect(repeated).toEqual([]);
  });

  it('codes are snake_case, statuses are 4xx/5xx, messages are set', () => {
    for (const e of ERRORS) {
      expect(e.code).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(e.status).toBeGreaterThanOrEqual(400);
      expect(e.status).toBeLessThan(600);
      expect(e.message.length).toBeGreaterThan(0);
    }
  });

  it('the body is the contract shape plus code; a detail follows the message after ": "', () => {
    expect(errorFor('insufficient_credit')).toEqual({ code: 'insufficient_credit', status: 402, message: 'Insufficient call credit' });
    expect(errorBody('invalid_phone_number')).toEqual({ status: 'error', message: 'Invalid phone number', code: 'invalid_phone_number' });
    expect(errorBody('invalid_phone_number', '123')).toEqual({
      status: 'error',
      message: 'Invalid phone number: 123',
      code: 'invalid_phone_number',
    });
  });
});
