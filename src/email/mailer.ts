import { readFile } from 'node:fs/promises';
import nodemailer from 'nodemailer';
import type { Config } from '../config';
import type { Logger } from '../log';

/**
 * E-mail through the LAN's relay (docs/second-path.md "E-mail"), with nodemailer's SMTP
 * transport: `smtps://` is TLS from the first byte (RFC 8314 §3.3), `smtp://` upgrades with
 * STARTTLS (RFC 3207) when the relay offers it, or must (`starttls = true`), or never
 * (`false`). One connection per message: alerts are rare and a pooled connection that the
 * relay closed in between would be one more way to fail.
 */
export type MailOutcome = { ok: true; messageId: string; response: string } | { ok: false; reason: string };

export interface Mailer {
  /** Never rejects: a refusal is an outcome whose reason names the relay's answer. */
  send(message: { to: string; subject: string; text: string }): Promise<MailOutcome>;
  /** Connects, greets, upgrades and logs in without sending (doctor). */
  verify(): Promise<MailOutcome>;
}

/** Null when `[email]` has no smtp_url. */
export function createMailer(email: Config['email'], log: Logger): Mailer | null {
  if (email.smtp_url === '') return null;
  const url = new URL(email.smtp_url);
  const secure = url.protocol === 'smtps:';
  let ca: Promise<string | undefined> | null = null;
  const transport = async () =>
    nodemailer.createTransport({
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port ? Number(url.port) : secure ? 465 : 25,
      secure,
      requireTLS: !secure && email.starttls === true,
      ignoreTLS: !secure && email.starttls === false,
      auth: email.username ? { user: email.username, pass: email.password } : undefined,
      connectionTimeout: email.timeout_s * 1000,
      greetingTimeout: email.timeout_s * 1000,
      socketTimeout: email.timeout_s * 1000,
      tls: { ca: await (ca ??= email.tls_ca_file ? readFile(email.tls_ca_file, 'utf8') : Promise.resolve(undefined)) },
    });
  return {
    async send(m) {
      try {
        const t = await transport();
        const info = await t.sendMail({ from: email.from, to: m.to, subject: m.subject, text: m.text });
        t.close();
        log.info({ to: m.to, messageId: info.messageId }, 'e-mail sent');
        return { ok: true, messageId: info.messageId, response: info.response };
      } catch (e) {
        const reason = mailError(e, email.from);
        log.warn({ to: m.to, reason }, 'e-mail not sent');
        return { ok: false, reason };
      }
    },
    async verify() {
      try {
        const t = await transport();
        await t.verify();
        t.close();
        return { ok: true, messageId: '', response: 'relay ready' };
      } catch (e) {
        return { ok: false, reason: mailError(e, email.from) };
      }
    },
  };
}

/** One sentence for the operator: which SMTP step failed and the relay's own words. */
export function mailError(e: unknown, from: string): string {
  const err = e as { message?: string; code?: string; command?: string; response?: string; responseCode?: number };
  const words = (err.response ?? err.message ?? String(e)).trim();
  const command = (err.command ?? '').toUpperCase();
  // 530: the relay takes mail only after AUTH (RFC 4954 §6), said at MAIL when no login was given.
  if (err.responseCode === 530) return `the relay wants a login first ([email] username and password): ${words}`;
  if (command.startsWith('MAIL')) return `the relay refused the sender ${from}: ${words}`;
  if (command.startsWith('RCPT')) return `the relay refused the recipient: ${words}`;
  if (command.startsWith('AUTH') || err.code === 'EAUTH') return `the relay refused the login: ${words}`;
  if (err.code === 'ETLS' || /STARTTLS/i.test(words)) return `TLS with the relay failed: ${words}`;
  if (err.code === 'ECONNECTION' || err.code === 'ETIMEDOUT' || err.code === 'ESOCKET' || err.code === 'EDNS') return `cannot reach the relay: ${words}`;
  return `the relay did not take the message: ${words}`;
}
