import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startGsmModem, type GsmModem } from '../../test/helpers/gsm-modem';
import { startSmtpRelay, type SmtpRelay } from '../../test/helpers/smtp-relay';
import { makeTestCa } from '../../test/helpers/test-ca';
import { configSchema } from '../config';
import { checkSecondPath } from './doctor-second-path';

/** docs/second-path.md "Operations": the doctor's lines for the modems and the SMTP relay. */
let stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const s of stops.reverse()) await s();
  stops = [];
});

const gsm = async (o: { silent?: boolean; creg?: number } = {}): Promise<GsmModem> => {
  const m = await startGsmModem({ device: join(mkdtempSync(join(tmpdir(), 'va-doc-')), 'ttyUSB2'), rssi: 31, ...o });
  stops.push(() => m.stop());
  return m;
};

describe('doctor: the second path', () => {
  it('says nothing when no modem and no relay is configured', async () => {
    expect(await checkSecondPath(configSchema.parse({}))).toEqual([]);
  });

  it('one line per modem (SIM, registration, signal) and one for the relay', async () => {
    const [good, silent, roaming] = [await gsm(), await gsm({ silent: true }), await gsm({ creg: 2 })];
    const relay: SmtpRelay = await startSmtpRelay({ tls: 'none' });
    stops.push(() => relay.stop());
    const config = configSchema.parse({
      sms: {
        at_timeout_s: 0.5,
        modems: [
          { name: 'good', device: good.device },
          { name: 'silent', device: silent.device },
          { name: 'searching', device: roaming.device },
          { name: 'absent', device: '/nonexistent/ttyUSB7' },
        ],
      },
      email: { smtp_url: relay.url, from: 'alerts@example.lan', starttls: false },
    });
    const checks = await checkSecondPath(config);
    expect(checks.map((c) => [c.name, c.status])).toEqual([
      ['sms.modem', 'ok'],
      ['sms.modem', 'fail'],
      ['sms.modem', 'fail'],
      ['sms.modem', 'fail'],
      ['email.relay', 'ok'],
    ]);
    expect(checks[0]!.detail).toBe(`[good] ${good.device}: SIM ready, registered, home network, signal -51 dBm`);
    expect(checks[1]!.detail).toBe(`[silent] ${silent.device}: no answer to AT within 0.5 s`);
    expect(checks[2]!.detail).toBe(`[searching] ${roaming.device}: SIM ready, searching, signal -51 dBm`);
    expect(checks[3]!.detail).toMatch(/^\[absent\] \/nonexistent\/ttyUSB7: cannot (open|set up) \/nonexistent\/ttyUSB7/);
    expect(checks[3]!.remedy).toMatch(/dialout/);
    expect(checks[4]!.detail).toBe(`${relay.url} takes mail from alerts@example.lan (connected, greeted)`);
  });

  it('a relay that wants a login: logged in with [email] username/password after STARTTLS, or FAIL with its words', async () => {
    const ca = makeTestCa();
    const cert = ca.issue('relay');
    const relay = await startSmtpRelay({ tls: 'starttls', certFile: cert.certFile, keyFile: cert.keyFile, auth: { username: 'voice-alert', password: 'right' } });
    stops.push(() => relay.stop());
    const doctor = async (password: string) =>
      (await checkSecondPath(configSchema.parse({ email: { smtp_url: relay.url, from: 'alerts@example.lan', username: 'voice-alert', password, tls_ca_file: ca.caFile, timeout_s: 10 } })))[0]!;
    expect(await doctor('right')).toEqual({ name: 'email.relay', status: 'ok', detail: `${relay.url} takes mail from alerts@example.lan (connected, greeted, logged in)` });
    const wrong = await doctor('wrong');
    expect(wrong).toMatchObject({ name: 'email.relay', status: 'fail', detail: `${relay.url}: the relay refused the login: 535 5.7.8 Authentication credentials invalid` });
    expect(wrong.remedy).toMatch(/email\.username\/password/);
    expect(relay.logins().map((l) => l.success)).toEqual([true, false]);
    expect(relay.messages()).toEqual([]); // doctor sends nothing
  });

  it('a modem another program holds (ModemManager, here a shell) fails naming it', async () => {
    const m = await gsm();
    const holder = Bun.spawn(['sh', '-c', `exec 3<>${m.device}; sleep 30`], { stdout: 'ignore', stderr: 'ignore' });
    stops.push(async () => {
      holder.kill();
      await holder.exited;
    });
    await Bun.sleep(200);
    const [c] = await checkSecondPath(configSchema.parse({ sms: { modems: [{ name: 'busy', device: m.device }] } }));
    expect(c).toMatchObject({ name: 'sms.modem', status: 'fail', detail: `[busy] ${m.device} is open in process ${holder.pid} (sh)` });
    expect(c!.remedy).toMatch(/ModemManager/);
  });
});
