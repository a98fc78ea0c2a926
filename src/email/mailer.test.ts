import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailSection } from '../config/sections/email';
import { silentLogger } from '../log';
import { startSmtpRelay, type SmtpRelay } from '../../test/helpers/smtp-relay';
import { makeTestCa, type IssuedCertificate, type TestCa } from '../../test/helpers/test-ca';
import { createMailer } from './mailer';

/** docs/second-path.md "E-mail": into Debian's aiosmtpd, with STARTTLS and SMTPS signed by a test CA. */
let ca: TestCa;
let cert: IssuedCertificate;
const relays: SmtpRelay[] = [];
beforeAll(() => {
  ca = makeTestCa();
  cert = ca.issue('relay');
});
afterAll(async () => {
  await Promise.all(relays.map((r) => r.stop()));
});

const relay = async (tls: 'none' | 'starttls' | 'smtps') => {
  const r = await startSmtpRelay({ tls, certFile: cert.certFile, keyFile: cert.keyFile });
  relays.push(r);
  return r;
};

const mailer = (over: Record<string, unknown>) =>
  createMailer(emailSection.parse({ from: 'voice-alert <alerts@example.lan>', tls_ca_file: ca.caFile, timeout_s: 10, ...over }), silentLogger())!;

describe('e-mail through the LAN relay', () => {
  it('upgrades with STARTTLS when offered and the relay receives the message as written', async () => {
    const r = await relay('starttls');
    const out = await mailer({ smtp_url: r.url }).send({ to: 'ayse@example.lan', subject: 'ALERT db1: disk full', text: 'Disk dolu: ğüşıöç. Reply 1 to acknowledge (code K7Q2).' });
    expect(out.ok).toBe(true);
    const [m] = r.messages();
    expect(m!.tls).toBe(true);
    expect(m!.mail_from).toBe('alerts@example.lan');
    expect(m!.rcpt_tos).toEqual(['ayse@example.lan']);
    expect(m!.data).toMatch(/^Subject: ALERT db1: disk full$/m);
    expect(m!.data).toMatch(/^From: "voice-alert" <alerts@example\.lan>$/m);
    // nodemailer writes non-ASCII text as quoted-printable UTF-8.
    expect(m!.data).toMatch(/Content-Type: text\/plain; charset=utf-8/);
    expect(decodeQp(m!.data.split(/\r?\n\r?\n/).slice(1).join('\n\n'))).toContain('Disk dolu: ğüşıöç. Reply 1 to acknowledge (code K7Q2).');
  });

  it('speaks SMTPS from the first byte', async () => {
    const r = await relay('smtps');
    const out = await mailer({ smtp_url: r.url }).send({ to: 'ops@example.lan', subject: 's', text: 'over smtps' });
    expect(out.ok).toBe(true);
    expect(r.messages().map((m) => m.tls)).toEqual([true]);
  });

  it('starttls = true against a relay that does not offer it: a clear error, nothing sent in the clear', async () => {
    const r = await relay('none');
    const out = await mailer({ smtp_url: r.url, starttls: true }).send({ to: 'ops@example.lan', subject: 's', text: 'secret' });
    expect(out.ok).toBe(false);
    expect(out.ok ? '' : out.reason).toMatch(/^TLS with the relay failed: 454 /);
    expect(r.messages()).toEqual([]);
    // starttls = "auto" takes the plain relay as it is.
    expect((await mailer({ smtp_url: r.url }).send({ to: 'ops@example.lan', subject: 's', text: 'plain' })).ok).toBe(true);
    expect(r.messages().map((m) => m.tls)).toEqual([false]);
  });

  it('a relay that refuses the sender: the reason names the sender and the relay words', async () => {
    const r = await relay('starttls');
    const out = await mailer({ smtp_url: r.url, from: 'refused@example.lan' }).send({ to: 'ops@example.lan', subject: 's', text: 'x' });
    expect(out).toEqual({ ok: false, reason: 'the relay refused the sender refused@example.lan: 550 5.7.1 Sender not allowed to relay here' });
    expect(r.messages()).toEqual([]);
  });

  it('a relay that is not there, and a certificate nobody vouches for', async () => {
    const r = await relay('starttls');
    const down = await mailer({ smtp_url: 'smtp://127.0.0.1:1' }).verify();
    expect(down.ok ? '' : down.reason).toMatch(/^cannot reach the relay: .*ECONNREFUSED/);
    const untrusted = await mailer({ smtp_url: r.url, tls_ca_file: '' }).verify();
    expect(untrusted.ok ? '' : untrusted.reason).toMatch(/certificate/i);
    expect((await mailer({ smtp_url: r.url }).verify()).ok).toBe(true);
  });
});

function decodeQp(s: string): string {
  const bytes = s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

describe('e-mail through a relay that wants a login (AUTH after STARTTLS, RFC 4954)', () => {
  const authRelay = async (mechanisms?: ('PLAIN' | 'LOGIN')[]) => {
    const r = await startSmtpRelay({ tls: 'starttls', certFile: cert.certFile, keyFile: cert.keyFile, auth: { username: 'voice-alert', password: 'pä55 word', mechanisms } });
    relays.push(r);
    return r;
  };

  it('logs in with [email] username/password after STARTTLS (AUTH PLAIN) and the relay takes the message under that login', async () => {
    const r = await authRelay();
    const m = mailer({ smtp_url: r.url, username: 'voice-alert', password: 'pä55 word' });
    expect(await m.verify()).toEqual({ ok: true, messageId: '', response: 'relay ready' });
    const out = await m.send({ to: 'ayse@example.lan', subject: 'Alert 4821: disk full', text: 'disk full on db1' });
    expect(out).toMatchObject({ ok: true, response: expect.stringMatching(/^250 /) });
    expect(r.logins()).toEqual([
      { mechanism: 'PLAIN', login: 'voice-alert', success: true },
      { mechanism: 'PLAIN', login: 'voice-alert', success: true },
    ]);
    const [got] = r.messages();
    expect(got).toMatchObject({ tls: true, login: 'voice-alert', mail_from: 'alerts@example.lan', rcpt_tos: ['ayse@example.lan'] });
    expect(got!.data).toMatch(/^Subject: Alert 4821: disk full$/m);
    expect(got!.data).toContain('disk full on db1');
  });

  it('AUTH LOGIN when that is all the relay offers', async () => {
    const r = await authRelay(['LOGIN']);
    const out = await mailer({ smtp_url: r.url, username: 'voice-alert', password: 'pä55 word' }).send({ to: 'ops@example.lan', subject: 's', text: 'x' });
    expect(out.ok).toBe(true);
    expect(r.logins()).toEqual([{ mechanism: 'LOGIN', login: 'voice-alert', success: true }]);
    expect(r.messages().map((m) => [m.login, m.tls])).toEqual([['voice-alert', true]]);
  });

  it('a wrong password, or none: a reason naming the login step and the relay words, nothing sent', async () => {
    const r = await authRelay();
    const wrong = await mailer({ smtp_url: r.url, username: 'voice-alert', password: 'wrong' }).send({ to: 'ops@example.lan', subject: 's', text: 'x' });
    expect(wrong).toEqual({ ok: false, reason: 'the relay refused the login: 535 5.7.8 Authentication credentials invalid' });
    expect(r.logins()).toEqual([{ mechanism: 'PLAIN', login: 'voice-alert', success: false }]);
    const none = await mailer({ smtp_url: r.url }).send({ to: 'ops@example.lan', subject: 's', text: 'x' });
    expect(none).toEqual({ ok: false, reason: 'the relay wants a login first ([email] username and password): 530 5.7.0 Authentication required' });
    expect(r.messages()).toEqual([]);
  });
});
