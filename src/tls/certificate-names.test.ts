import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { selfSignedNames } from './certificate-names';

const iface = (address: string, family: 'IPv4' | 'IPv6') => ({ address, family }) as NetworkInterfaceInfo;
const machine = {
  lo: [iface('127.0.0.1', 'IPv4'), iface('::1', 'IPv6')],
  eth0: [iface('192.0.2.10', 'IPv4'), iface('2001:db8::10', 'IPv6'), iface('fe80::1', 'IPv6')],
};

describe('selfSignedNames', () => {
  it('0.0.0.0: the host name, localhost, and every IPv4 address of the machine', () => {
    expect(selfSignedNames('0.0.0.0', 'Alerts-1', machine)).toEqual({ dns: ['alerts-1', 'localhost'], ips: ['127.0.0.1', '192.0.2.10'] });
  });

  it('[::]: every address but link-local ones, which need a zone a certificate cannot name', () => {
    expect(selfSignedNames('::', 'alerts-1', machine).ips).toEqual(['127.0.0.1', '::1', '192.0.2.10', '2001:db8::10']);
  });

  it('one address: that address and 127.0.0.1; a name: that name', () => {
    expect(selfSignedNames('192.0.2.10', 'alerts-1', machine)).toEqual({ dns: ['alerts-1', 'localhost'], ips: ['127.0.0.1', '192.0.2.10'] });
    expect(selfSignedNames('alerts.example.net', 'alerts-1', machine)).toEqual({ dns: ['alerts-1', 'localhost', 'alerts.example.net'], ips: ['127.0.0.1'] });
  });
});
