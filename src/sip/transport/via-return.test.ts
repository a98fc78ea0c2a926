import { describe, expect, it } from 'vitest';
import { viaReturnAddress } from './via-return';

const bye = (via: string) => `BYE sip:u@127.0.0.1:5062 SIP/2.0\r\nVia: ${via}\r\nCSeq: 2 BYE\r\n\r\n`;
const from = { address: '192.0.2.7', port: 40000 };

describe('where a response to a UDP request goes (RFC 3261 §18.2.2, RFC 3581)', () => {
  it('rport: the source address and port', () => {
    expect(viaReturnAddress(bye('SIP/2.0/UDP 10.0.0.1:5070;branch=z9hG4bK1;rport'), from)).toEqual({ host: '192.0.2.7', port: 40000 });
  });
  it('no rport: the source address at the sent-by port, or 5060', () => {
    expect(viaReturnAddress(bye('SIP/2.0/UDP 10.0.0.1:5070;branch=z9hG4bK1'), from)).toEqual({ host: '192.0.2.7', port: 5070 });
    expect(viaReturnAddress(bye('SIP/2.0/UDP pbx.example.net;branch=z9hG4bK1'), from)).toEqual({ host: '192.0.2.7', port: 5060 });
    expect(viaReturnAddress(bye('SIP/2.0/UDP [2001:db8::1]:5080;branch=z9hG4bK1'), from)).toEqual({ host: '192.0.2.7', port: 5080 });
  });
});
