import { describe, expect, it } from 'vitest';
import { createStreamFramer } from './stream-framer';

const msg = (body: string) =>
  `SIP/2.0 200 OK\r\nCall-ID: x\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

describe('TCP framing by Content-Length (RFC 3261 §18.3)', () => {
  it('splits messages across arbitrary chunk borders, multibyte bodies and keep-alives', () => {
    const a = msg('v=0\r\ns=ş\r\n');
    const b = msg('');
    const bytes = Buffer.from(`\r\n\r\n${a}${b}\r\n`);
    for (const size of [1, 3, 7, bytes.length]) {
      const f = createStreamFramer();
      const out: string[] = [];
      for (let i = 0; i < bytes.length; i += size) out.push(...f.push(bytes.subarray(i, i + size)));
      expect(out).toEqual([a, b]);
      expect(f.error()).toBeNull();
    }
  });

  it('refuses a stream message without Content-Length', () => {
    const f = createStreamFramer();
    expect(f.push(Buffer.from('SIP/2.0 200 OK\r\nCall-ID: x\r\n\r\n'))).toEqual([]);
    expect(f.error()).toMatch(/Content-Length/);
  });
});
