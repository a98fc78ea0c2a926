import { isIP } from 'node:net';
import { describe, expect, it } from 'vitest';
import { bracketHost, ipFamily, parseHostPort } from './host-port';
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

describe('ipFamily: node:net isIP without loading node:net', () => {
  it('answers as isIP for addresses, near-misses and random edits of them', () => {
    const samples = [
      '0.0.0.0', '127.0.0.1', '255.255.255.255', '256.1.1.1', '01.2.3.4', '1.2.3', '1.2.3.4.5', ' 1.2.3.4',
      '::', '::1', '2001:db8::10', 'fe80::1%eth0', '::ffff:192.0.2.1', '1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8:9',
      '1::2::3', '[::1]', '::1:5060', 'pbx.example.com', '', 'gggg::1', '1:2:3:4:5:6:1.2.3.4', '12345::1',
    ];
    for (const s of samples) expect(ipFamily(s), s).toBe(isIP(s));
    // Each sample edited at random (a character replaced, inserted or removed, up to three
    // times): near-misses and other addresses alike. The two must never disagree.
    let seed = 44;
    const random = (n: number) => Math.floor((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 * n);
    const chars = '0123456789abcdefABCDEFg:.%[]';
    const edit = (s: string) => {
      const at = random(s.length + 1);
      const c = chars[random(chars.length)]!;
      return [s.slice(0, at) + c + s.slice(at + 1), s.slice(0, at) + c + s.slice(at), s.slice(0, at) + s.slice(at + 1)][random(3)]!;
    };
    const disagree: string[] = [];
    const families = { 0: 0, 4: 0, 6: 0 };
    for (let i = 0; i < 20_000; i++) {
      let s = samples[random(samples.length)]!;
      for (let k = random(3); k >= 0; k--) s = edit(s);
      if (ipFamily(s) !== isIP(s)) disagree.push(s);
      families[isIP(s) as 0 | 4 | 6]++;
    }
    expect(disagree).toEqual([]);
    expect(Math.min(families[0], families[4], families[6])).toBeGreaterThan(200); // each answer was reached many times
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
