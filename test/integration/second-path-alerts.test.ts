import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fromUcs2Hex } from '../../src/sms/text-coding';
import { applianceDir, provision, type RunningAppliance } from '../helpers/appliance';
import { startGsmModem, type GsmModem } from '../helpers/gsm-modem';
import { startSmtpRelay } from '../helpers/smtp-relay';
import { makeTestCa } from '../helpers/test-ca';
import { post } from '../helpers/http';
import { parsePromText, sampleValue } from '../helpers/prom-text';
import { until } from '../helpers/until';

/**
 * docs/second-path.md "When texts and e-mails are sent" and "Answering by text" through the
 * compiled binary, with the GSM modem simulated on a pseudo-terminal and no SIP trunk (the
 * calls wait, as when the PBX is what broke): a person with an `--sms` number called for an
 * alert gets the text on the modem; `1` from another number changes nothing; `1` from theirs
 * acknowledges the alert and cancels its calls.
 */
let stops: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const s of stops.reverse()) await s();
  stops = [];
});

const AYSE_SMS = '5321234567';

describe('texts to people and their replies, in the binary', () => {
  it("texts the person at their first call, and only their reply '1' acknowledges", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'va-sms-alerts-'));
    const gsm1: GsmModem = await startGsmModem({ device: join(dir, 'ttyUSB2') });
    stops.push(() => gsm1.stop());
    const a = applianceDir({ sms: { at_timeout_s: 1, status_interval_s: 0.5, reopen_s: 0.3, modems: [{ name: 'gsm1', device: gsm1.device }] } });
    const acc = provision(a);
    const person = a.cliJson(['person', 'create', acc.accountId, '--name', 'Ayşe', '--phone', '5321111111', '--sms', `+90${AYSE_SMS}`, '--language', 'tr', '--json']) as { id: string };
    a.cliJson(['policy', 'create', acc.accountId, '--name', 'oncall', '--step', '+Ayşe:600', '--rounds', '1']);
    const app: RunningAppliance = await a.start();
    stops.push(() => app.stop());
    const headers = { 'x-api-key': acc.apiKey, 'x-api-secret': acc.apiSecret };
    const alertOf = async (id: string) => (await fetch(`${app.url}/api/alerts/${id}`, { headers }).then((r) => r.json())).alert;
    await until('gsm1 ready', async () => ((await (await fetch(`${app.url}/healthz`)).json()) as { checks: { sms: { state: string } } }).checks.sms.state === 'up', 15_000, 100);

    const asked = Date.now();
    const r = await post(`${app.url}/api/call`, { api_key: acc.apiKey, api_secret: acc.apiSecret, error_message: 'çekirdek anahtar düştü', alert_key: 'core', policy: 'oncall' });
    expect(r.status).toBe(200);
    const alertId = (r.json as { alert_id: string }).alert_id;
    // Turkish letters make it UCS-2 (70 characters a part): it goes in two parts, `(1/2) …`.
    await until('the modem got the text', () => gsm1.sent.length === 2, 10_000, 20);
    const tookMs = Date.now() - asked;
    // Woken with the dialer after COMMIT: well within the contract's 2 s on an idle machine; the
    // bound here leaves room for a loaded CI host.
    expect(tookMs).toBeLessThan(5000);
    expect(gsm1.sent.map((p) => p.charset)).toEqual(['UCS2', 'UCS2']);
    const alert = await alertOf(alertId);
    expect(alert.short_code).toMatch(/^\d{4}$/);
    for (const p of gsm1.sent) expect(fromUcs2Hex(p.to)).toMatch(new RegExp(`${AYSE_SMS}$`));
    const parts = gsm1.sent.map((p) => fromUcs2Hex(p.body)!);
    expect(parts.map((p) => p.slice(0, 6))).toEqual(['(1/2) ', '(2/2) ']);
    // Cut at a space, which the parts leave out (src/sms/text-coding.ts splitText).
    expect(parts.map((p) => p.slice(6)).join(' ')).toBe(`ALARM ${alert.short_code}: çekirdek anahtar düştü\nOnaylamak için 1, kapatmak için "resolve ${alert.short_code}" yazıp yanıtlayın.`);
    await until('recorded on the alert', async () => (await alertOf(alertId)).events.length === 1, 5000, 50);
    expect((await alertOf(alertId)).events[0]).toMatchObject({ type: 'sms.sent', address: AYSE_SMS, person_id: person.id, detail: 'modem gsm1' });

    // '1' from a number no person has: read, deleted from the SIM, and nothing changes.
    gsm1.deliver('+905320000000', '1');
    await until('the stranger text read', () => gsm1.stored().size === 0 && gsm1.commands().some((c) => c.startsWith('AT+CMGD=')), 10_000, 20);
    const still = await alertOf(alertId);
    expect(still.state).toBe('open');
    expect(still.events.map((e: { type: string }) => e.type)).toEqual(['sms.sent']);

    // '1' from Ayşe's number acknowledges: by sms:<number>, the waiting call cancelled.
    gsm1.deliver(`+90${AYSE_SMS}`, '1');
    await until('acknowledged by text', async () => (await alertOf(alertId)).state === 'acknowledged', 10_000, 50);
    const done = await alertOf(alertId);
    expect(done.acknowledged_by).toBe(`sms:${AYSE_SMS}`);
    expect(done.calls.map((c: { state: string }) => c.state)).toEqual(['cancelled']);
    expect(done.events.map((e: { type: string; detail: string | null }) => [e.type, e.detail])).toEqual([
      ['sms.sent', 'modem gsm1'],
      ['sms.received', '1'],
    ]);
    expect(app.process.exitCode).toBeNull();
  });
  it('e-mail through a relay that wants a login: sent under [email] username/password after STARTTLS; a wrong password is email.failed on the alert, and the appliance serves on', async () => {
    const ca = makeTestCa();
    const cert = ca.issue('relay');
    const relay = await startSmtpRelay({ tls: 'starttls', certFile: cert.certFile, keyFile: cert.keyFile, auth: { username: 'voice-alert', password: 'right' } });
    stops.push(() => relay.stop());
    const email = { smtp_url: relay.url, from: 'alerts@example.lan', username: 'voice-alert', tls_ca_file: ca.caFile, timeout_s: 10 };
    for (const [password, expected] of [
      ['wrong', ['email.failed', 'the relay refused the login: 535 5.7.8 Authentication credentials invalid']],
      ['right', ['email.sent', null]],
    ] as const) {
      const a = applianceDir({ email: { ...email, password } });
      const acc = provision(a);
      a.cliJson(['person', 'create', acc.accountId, '--name', 'Ayşe', '--phone', '5321111111', '--email', 'ayse@example.lan', '--language', 'en', '--json']);
      a.cliJson(['policy', 'create', acc.accountId, '--name', 'oncall', '--step', '+Ayşe:600', '--rounds', '1']);
      const app: RunningAppliance = await a.start();
      stops.push(() => app.stop());
      const headers = { 'x-api-key': acc.apiKey, 'x-api-secret': acc.apiSecret };
      const alertOf = async (id: string) => (await fetch(`${app.url}/api/alerts/${id}`, { headers }).then((r) => r.json())).alert;
      const r = await post(`${app.url}/api/call`, { api_key: acc.apiKey, api_secret: acc.apiSecret, error_message: 'disk full on db1', alert_key: 'db1', policy: 'oncall' });
      expect(r.status).toBe(200);
      const alertId = (r.json as { alert_id: string }).alert_id;
      await until(`the e-mail's outcome recorded (password ${password})`, async () => (await alertOf(alertId)).events.length === 1, 15_000, 50);
      expect((await alertOf(alertId)).events.map((e: { type: string; address: string; detail: string | null }) => [e.type, e.detail])).toEqual([expected]);
      const metrics = parsePromText(await (await fetch(`${app.url}/metrics`)).text());
      expect(sampleValue(metrics, 'voice_alert_emails_total', { result: password === 'right' ? 'sent' : 'failed' })).toBe(1);
      // It serves on: a refused login is the relay's answer, not the appliance's failure.
      expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
      expect((await post(`${app.url}/api/call`, { api_key: acc.apiKey, api_secret: acc.apiSecret, phone_number: '5329999999', error_message: 'another', alert_key: 'db2' })).status).toBe(200);
      expect(app.process.exitCode).toBeNull();
      await app.stop();
    }
    const [got] = relay.messages();
    expect(relay.messages()).toHaveLength(1);
    expect(got).toMatchObject({ tls: true, login: 'voice-alert', rcpt_tos: ['ayse@example.lan'] });
    expect(got!.data).toMatch(/^Subject: Alert \d{4}: disk full on db1$/m);
    expect(relay.logins().map((l) => [l.login, l.success])).toEqual([
      ['voice-alert', false],
      ['voice-alert', true],
    ]);
  });
});
