import { describe, expect, it } from 'vitest';
import { keyLines, lineOf } from './key-lines';

describe('keyLines (where a TOML key is written)', () => {
  const text = [
    'top = 1', // 1
    '[http]', // 2
    'listen = "0.0.0.0:8080" # comment', // 3
    '"quoted" = 2', // 4
    'numbers.accept = ["e164",', // 5
    '  "tr-mobile"]', // 6
    "note = '''", // 7
    'listen = "in a string"', // 8
    "'''", // 9
    '[[sip.trunks]]', // 10
    'name = "a"', // 11
    '[[sip.trunks]]', // 12
    'name = "b"', // 13
    '[sip.trunks.tls]', // 14
    'verify = true', // 15
  ].join('\n');
  const lines = keyLines(text);

  it('names keys under their table, dotted and quoted keys, arrays of tables by index', () => {
    expect(lines.get('top')).toBe(1);
    expect(lines.get('http')).toBe(2);
    expect(lines.get('http.listen')).toBe(3); // not line 8, inside the string
    expect(lines.get('http.quoted')).toBe(4);
    expect(lines.get('http.numbers.accept')).toBe(5);
    expect(lines.get('http.note')).toBe(7);
    expect(lines.get('sip.trunks.0.name')).toBe(11);
    expect(lines.get('sip.trunks.1.name')).toBe(13);
    expect(lines.get('sip.trunks.1.tls.verify')).toBe(15);
  });

  it('a key not in the file takes the line of the nearest table holding it; none outside any', () => {
    expect(lineOf(lines, 'http.tls')).toBe(2);
    expect(lineOf(lines, 'sip.trunks.1.server')).toBe(12);
    expect(lineOf(lines, 'calls.ring_timeout_s')).toBeNull();
  });
});
