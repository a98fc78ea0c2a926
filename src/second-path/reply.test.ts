import { describe, expect, it } from 'vitest';
import { parseReply, REPLY_MAX_CHARS, senderNumber } from './reply';

// docs/second-path.md "Answering by text".
describe('parseReply', () => {
  it.each([
    ['1', { action: 'acknowledge', code: null }],
    [' ack ', { action: 'acknowledge', code: null }],
    ['ACK 4821', { action: 'acknowledge', code: '4821' }],
    ['Ack\t482199', { action: 'acknowledge', code: '482199' }],
    ['resolve 4821', { action: 'resolve', code: '4821' }],
    ['RESOLVE', { action: 'resolve', code: null }],
    ['1 4821', { action: 'acknowledge', code: '4821' }],
  ])('%j is an answer', (body, want) => {
    expect(parseReply(body)).toEqual(want);
  });

  it.each(['', '2', 'ok', 'ack abc', 'ack 12', 'ack 1234567', 'resolve 4821 now', 'acknowledge', 'tamam'])('%j is not', (body) => {
    expect(parseReply(body)).toBeNull();
  });

  it('a long text is never an answer, even one that starts like one', () => {
    expect(parseReply(`1${' '.repeat(REPLY_MAX_CHARS)}`)).toBeNull();
    expect(parseReply('1'.padEnd(2000, 'x'))).toBeNull();
  });
});

describe('senderNumber', () => {
  it.each([
    ['+905321234567', '5321234567'],
    ['05321234567', '5321234567'],
    ['905321234567', '5321234567'],
    ['5321234567', '5321234567'],
    ['sip:05321234567@pbx.lan', '5321234567'],
    ['<sip:+905321234567@10.0.0.1;user=phone>', '5321234567'],
    ['"Ayşe" <sips:0532 123 45 67@pbx.lan>', '5321234567'],
    ['sip:%2B905321234567@pbx.lan', '5321234567'],
    ['+4915112345678', '+4915112345678'],
    ['2001', '2001'],
  ])('%j is %j', (from, want) => {
    expect(senderNumber(from)).toBe(want);
  });

  it.each(['', 'Turkcell', 'sip:alice@pbx.lan', 'sip:%zz@pbx'])('%j is no number', (from) => {
    expect(senderNumber(from)).toBeNull();
  });
});
