import { describe, expect, it } from 'vitest';
import { advertisedAddress } from './local-address';

const server = { host: '127.0.0.1', port: 5060 };

describe('the address we advertise in Via, Contact and SDP', () => {
  it('is sip.public_address behind NAT, else the bound address, else the route to the PBX', async () => {
    expect(await advertisedAddress({ publicAddress: '203.0.113.7', localAddress: '0.0.0.0', server })).toBe('203.0.113.7');
    expect(await advertisedAddress({ publicAddress: '', localAddress: '127.0.0.1', server })).toBe('127.0.0.1');
    expect(await advertisedAddress({ publicAddress: '', localAddress: '0.0.0.0', server })).toBe('127.0.0.1');
  });

  it('over IPv6: the bound address, else the IPv6 route to the PBX (bare, brackets are added in URIs)', async () => {
    const server6 = { host: '::1', port: 5060 };
    expect(await advertisedAddress({ publicAddress: '', localAddress: '::1', server: server6 })).toBe('::1');
    expect(await advertisedAddress({ publicAddress: '', localAddress: '::', server: server6 })).toBe('::1');
    expect(await advertisedAddress({ publicAddress: '2001:db8::7', localAddress: '::', server: server6 })).toBe('2001:db8::7');
  });
});
