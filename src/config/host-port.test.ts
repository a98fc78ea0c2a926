import { describe, expect, it } from 'vitest';
import { bracketHost, parseHostPort } from './host-port';
import { sipSection } from './sections/sip';

describe('host:port with IPv6', () => {
  it('parses bracketed IPv6, IPv4 and names; refuses an unbracketed IPv6 address', () => {
    expect(parseHostPort('[::1]:5060')).toEqual({ host: '::1', port: 5060 });
    expect(parseHostPort('[2001:db8::10]:5080')).toEqual({ host: '2001:db8::10', port: 5080 });
    expect(parseHostPort('127.0.0.1:5060')).toEqual({ host: '127.0.0.1', port: 5060 });
    expect(parseHostPort('pbx.example.com:5060')).toEqual({ host: 'pbx.example.com', port: 5060 });
    expect(parseHostPort('::1:5060')).toBeNull();
    expect(parseHostPort('[::1]')).toBeNull();
  });

  it('brackets only IPv6 addresses for URIs and Via', () => {
    expect(bracketHost('::1')).toBe('[::1]');
    expect(bracketHost('2001:db8::10')).toBe('[2001:db8::10]');
    expect(bracketHost('[::1]')).toBe('[::1]');
    expect(bracketHost('127.0.0.1')).toBe('127.0.0.1');
    expect(bracketHost('pbx.example.com')).toBe('pbx.example.com');
  });
});

describe('sip addresses', () => {
  it('takes an IPv6 trunk bound to an IPv6 address', () => {
    expect(sipSection.parse({ server: '[::1]:5060', local_address: '::1' })).toMatchObject({ server: '[::1]:5060', local_address: '::1' });
    expect(sipSection.parse({ server: '[2001:db8::10]:5060', local_address: '::' }).local_address).toBe('::');
  });

  it('refuses a bind address of the other family, and addresses in brackets', () => {
    const issue = (o: object) => sipSection.safeParse(o).error?.issues[0];
    expect(issue({ server: '[::1]:5060' })).toMatchObject({ path: ['local_address'], message: expect.stringMatching(/IPv6/) }); // default 0.0.0.0
    expect(issue({ server: '127.0.0.1:5060', local_address: '::' })).toMatchObject({ path: ['local_address'], message: expect.stringMatching(/IPv4/) });
    expect(issue({ server: '[::1]:5060', local_address: '[::1]' })).toMatchObject({ path: ['local_address'], message: expect.stringMatching(/without brackets/) });
    expect(issue({ public_address: '[2001:db8::1]' })).toMatchObject({ path: ['public_address'] });
    // A server by name: the family is the resolver's business.
    expect(sipSection.safeParse({ server: 'pbx.example.com:5060', local_address: '::' }).success).toBe(true);
  });
});
