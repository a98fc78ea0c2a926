import { describe, expect, it } from 'vitest';
import { sipOnlyRedirectContacts } from './redirect-contacts';

const response = (status: string, contact: string) =>
  `SIP/2.0 ${status}\r\nVia: SIP/2.0/UDP 127.0.0.1;branch=z9hG4bK1\r\nContact: ${contact}\r\nCSeq: 1 INVITE\r\n\r\n`;

describe('3xx Contacts handed to sip.js', () => {
  it('keeps the SIP Contacts of a 302 and drops a tel: one', () => {
    const out = sipOnlyRedirectContacts(response('302 Moved Temporarily', '<tel:+902120000000>;q=0.9, "Desk, 2" <sip:0555@192.0.2.1:5060>;q=0.5'));
    expect(out).toContain('\r\nContact: "Desk, 2" <sip:0555@192.0.2.1:5060>;q=0.5\r\n');
    expect(out).not.toContain('tel:');
  });

  it('drops the Contact line when no SIP URI is left, and leaves non-3xx alone', () => {
    expect(sipOnlyRedirectContacts(response('302 Moved Temporarily', '<tel:+902120000000>'))).not.toMatch(/^Contact/m);
    const ok = response('200 OK', '<tel:+1>');
    expect(sipOnlyRedirectContacts(ok)).toBe(ok);
  });
});
