import { describe, expect, it } from 'vitest';
import { markReceived, requestSource } from './received-param';

const invite = (via: string) => `INVITE sip:8000@127.0.0.1 SIP/2.0\r\nVia: ${via}\r\nVia: SIP/2.0/UDP 10.0.0.9:5060;branch=z9hG4bKold\r\nCall-ID: x\r\n\r\nv=0\r\nVia: not a header\r\n`;
const topVia = (m: string) => /\r\nVia: ([^\r\n]*)/.exec(m)![1];

describe('Via received (RFC 3261 §18.2.1)', () => {
  it('marks a request whose source is not its sent-by, and only the top value of the top Via', () => {
    const m = markReceived(invite('SIP/2.0/UDP 192.0.2.7:5060;branch=z9hG4bKa;rport, SIP/2.0/UDP 10.0.0.1'), { address: '198.51.100.3', port: 40000 });
    expect(topVia(m)).toBe('SIP/2.0/UDP 192.0.2.7:5060;branch=z9hG4bKa;rport;received=198.51.100.3, SIP/2.0/UDP 10.0.0.1');
    expect(m).toContain('Via: SIP/2.0/UDP 10.0.0.9:5060;branch=z9hG4bKold');
    expect(m.endsWith('v=0\r\nVia: not a header\r\n')).toBe(true);
    expect(requestSource(topVia(m))).toBe('198.51.100.3');
  });

  it('leaves a Via that names its source as it is; the sent-by host is then the source', () => {
    const m = invite('SIP/2.0/UDP 127.0.0.3:5070;branch=z9hG4bKb');
    expect(markReceived(m, { address: '127.0.0.3', port: 5070 })).toBe(m);
    expect(requestSource('SIP/2.0/UDP 127.0.0.3:5070;branch=z9hG4bKb')).toBe('127.0.0.3');
    expect(requestSource('SIP/2.0/TCP [2001:db8::1]:5060;branch=z9hG4bKc')).toBe('2001:db8::1');
  });

  it('a forged received parameter is replaced by the real source; a host name is always marked', () => {
    const forged = markReceived(invite('SIP/2.0/UDP 192.0.2.7;received=192.0.2.7;branch=z9hG4bKd'), { address: '203.0.113.5', port: 1 });
    expect(requestSource(topVia(forged))).toBe('203.0.113.5');
    const named = markReceived(invite('SIP/2.0/UDP pbx.example.com;branch=z9hG4bKe'), { address: '::ffff:192.0.2.10', port: 1 });
    expect(requestSource(topVia(named))).toBe('192.0.2.10');
    expect(requestSource('SIP/2.0/UDP pbx.example.com;branch=z9hG4bKe')).toBeNull();
  });

  it('responses are never touched', () => {
    const r = 'SIP/2.0 200 OK\r\nVia: SIP/2.0/UDP 192.0.2.7;branch=z9hG4bKf\r\n\r\n';
    expect(markReceived(r, { address: '203.0.113.5', port: 1 })).toBe(r);
  });
});
