import { describe, expect, it } from 'vitest';
import { addViaPort, dropContactOb, dropOutboundTag, peek, stripViaPort } from './message-peek';

const request = (via: string, contact = '<sip:va@127.0.0.1:5070;transport=tcp;ob>') =>
  `INVITE sip:1@pbx SIP/2.0\r\nVia: ${via}\r\nFrom: <sip:va@pbx>;tag=f\r\nTo: <sip:1@pbx>\r\nCall-ID: c1\r\nCSeq: 1 INVITE\r\nContact: ${contact}\r\nContent-Length: 0\r\n\r\n`;
const response = (vias: string[]) =>
  `SIP/2.0 200 OK\r\n${vias.map((v) => `Via: ${v}`).join('\r\n')}\r\nFrom: <sip:va@pbx>;tag=f\r\nTo: <sip:1@pbx>;tag=t\r\nCall-ID: c1\r\nCSeq: 1 INVITE\r\nContent-Length: 0\r\n\r\n`;
const topVia = (m: string) => /^Via: (.*)$/m.exec(m)![1];

describe('Via sent-by port rewriting (RFC 3261 §18.2.1)', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1:5070'],
    ['pbx.example.com', 'pbx.example.com:5070'],
    ['[::1]', '[::1]:5070'],
    ['[2001:db8::10]', '[2001:db8::10]:5070'],
    ['[::ffff:192.0.2.1]', '[::ffff:192.0.2.1]:5070'],
  ])('adds our port to the sent-by %s of our request', (host, withPort) => {
    const m = addViaPort(request(`SIP/2.0/UDP ${host};branch=z9hG4bKa;rport`), 5070);
    expect(topVia(m)).toBe(`SIP/2.0/UDP ${withPort};branch=z9hG4bKa;rport`);
    expect(peek(m)?.branch).toBe('z9hG4bKa');
  });

  it('leaves a sent-by that has a port, and never touches a response (its Via is the requester’s)', () => {
    expect(topVia(addViaPort(request('SIP/2.0/TCP [::1]:5999;branch=z9hG4bKb'), 5070))).toBe('SIP/2.0/TCP [::1]:5999;branch=z9hG4bKb');
    expect(topVia(addViaPort(request('SIP/2.0/TCP 127.0.0.1:5999;branch=z9hG4bKb'), 5070))).toBe('SIP/2.0/TCP 127.0.0.1:5999;branch=z9hG4bKb');
    const answer = response(['SIP/2.0/TCP [::1]:5999;branch=z9hG4bKb', 'SIP/2.0/UDP proxy;branch=z9hG4bKp']);
    expect(addViaPort(answer, 5070)).toBe(answer);
  });

  it.each([
    ['127.0.0.1:5070', '127.0.0.1'],
    ['[::1]:5070', '[::1]'],
    ['[2001:db8::10]:5070', '[2001:db8::10]'],
    ['[::1]', '[::1]'],
  ])('strips the port from a response’s top Via %s for sip.js', (sentBy, host) => {
    const m = stripViaPort(response([`SIP/2.0/UDP ${sentBy};branch=z9hG4bKa;rport=5070;received=::1`, 'SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bKz']));
    expect(topVia(m)).toBe(`SIP/2.0/UDP ${host};branch=z9hG4bKa;rport=5070;received=::1`);
    expect(m).toContain('Via: SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bKz'); // only the top Via is ours
  });

  it('keeps the port of an incoming request’s Via, so our response copies it unchanged', () => {
    const bye = request('SIP/2.0/TCP [::1]:5999;branch=z9hG4bKbye').replace(/^INVITE/, 'BYE');
    expect(stripViaPort(bye)).toBe(bye);
  });

  it('drops ;ob from an IPv6 Contact', () => {
    const m = dropContactOb(request('SIP/2.0/TCP [::1];branch=z9hG4bKa', '<sip:va@[::1]:5070;transport=tcp;ob>'));
    expect(m).toContain('Contact: <sip:va@[::1]:5070;transport=tcp>\r\n');
  });
});

describe('Supported without outbound (we are no RFC 5626 client)', () => {
  it('keeps 100rel and timer, and drops a line that named only outbound', () => {
    const m = request('SIP/2.0/UDP 127.0.0.1;branch=z9hG4bKa').replace('Content-Length', 'Supported: outbound, 100rel, timer\r\nContent-Length');
    expect(dropOutboundTag(m)).toContain('\r\nSupported: 100rel, timer\r\nContent-Length: 0\r\n');
    const only = request('SIP/2.0/UDP 127.0.0.1;branch=z9hG4bKa').replace('Content-Length', 'Supported: outbound\r\nContent-Length');
    expect(dropOutboundTag(only)).not.toMatch(/Supported/);
  });
});
