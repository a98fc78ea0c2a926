import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applianceDir, type RunningAppliance } from '../helpers/appliance';
import { startGsmModem, type GsmModem } from '../helpers/gsm-modem';
import { parsePromText, sampleValue } from '../helpers/prom-text';
import { startSmtpRelay, type SmtpRelay } from '../helpers/smtp-relay';
import { until } from '../helpers/until';

/**
 * The second path through the compiled binary (docs/second-path.md): it opens a modem simulated
 * on a pseudo-terminal (so the tty handling runs inside `bun build --compile`), keeps serving
 * beside a modem that never answers, survives the modem's device vanishing and coming back, and
 * shows all of it in /healthz, /metrics and doctor.
 */
let stops: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const s of stops.reverse()) await s();
  stops = [];
});

type Sms = { state: string; modems: Record<string, { state: string; sim: string | null; registered: boolean | null; signal_dbm: number | null; error: string | null }> };

describe('the second path in the binary', () => {
  it('opens the modem, keeps serving beside a dead one, survives an unplug, and reports both', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'va-sms-'));
    const gsm1: GsmModem = await startGsmModem({ device: join(dir, 'ttyUSB2'), pin: '2580', rssi: 25 });
    stops.push(() => gsm1.stop());
    const dead: GsmModem = await startGsmModem({ device: join(dir, 'ttyUSB5'), silent: true });
    stops.push(() => dead.stop());
    const relay: SmtpRelay = await startSmtpRelay({ tls: 'none' });
    stops.push(() => relay.stop());
    const a = applianceDir({
      sms: {
        at_timeout_s: 0.5,
        status_interval_s: 0.5,
        reopen_s: 0.3,
        modems: [
          { name: 'gsm1', device: gsm1.device, pin: '2580' },
          { name: 'dead', device: dead.device },
        ],
      },
      email: { smtp_url: relay.url, from: 'alerts@example.lan', starttls: false },
    });
    const app: RunningAppliance = await a.start();
    stops.push(() => app.stop());
    const sms = async () => {
      const r = await fetch(`${app.url}/healthz`);
      expect(r.status).toBe(200); // a modem down never fails /healthz
      return ((await r.json()) as { checks: { sms: Sms } }).checks.sms;
    };

    await until('gsm1 ready and registered', async () => (await sms()).modems.gsm1?.registered === true, 15_000, 100);
    expect(gsm1.pinTries).toEqual(['2580']);
    const up = await sms();
    expect(up.state).toBe('up');
    expect(up.modems.gsm1).toMatchObject({ state: 'ready', sim: 'READY', signal_dbm: -63, error: null });
    await until('the dead modem reported', async () => (await sms()).modems.dead?.error === 'no answer to AT within 0.5 s', 10_000, 100);

    const metrics = parsePromText(await (await fetch(`${app.url}/metrics`)).text());
    expect(sampleValue(metrics, 'voice_alert_modem_up', { modem: 'gsm1' })).toBe(1);
    expect(sampleValue(metrics, 'voice_alert_modem_up', { modem: 'dead' })).toBe(0);
    expect(sampleValue(metrics, 'voice_alert_modem_signal_dbm', { modem: 'gsm1' })).toBe(-63);

    // Unplugged: the session notices and says so; plugged back: ready again, same process.
    await gsm1.vanish();
    await until('gsm1 lost', async () => (await sms()).modems.gsm1?.state !== 'ready', 10_000, 100);
    expect((await sms()).state).toBe('down');
    await gsm1.appear();
    await until('gsm1 back', async () => (await sms()).modems.gsm1?.state === 'ready', 15_000, 100);
    expect(gsm1.pinTries).toEqual(['2580', '2580']); // a replugged SIM asks again
    expect(app.process.exitCode).toBeNull();

    // doctor beside the running appliance: the modems it holds are left to it; the relay is checked.
    // Not spawnSync: that would freeze the simulated modem (it lives in this process) for the
    // doctor's whole run, the appliance would take it for a modem that stopped answering and
    // let go of it, and the doctor would find it free (a CI run did).
    const r = await a.cliAsync(['doctor', '--json']);
    const checks = (JSON.parse(r.stdout) as { checks: { name: string; status: string; detail: string }[] }).checks;
    const modems = checks.filter((c) => c.name === 'sms.modem');
    expect(modems[0]).toMatchObject({ status: 'skip' });
    // The dead one is held only between the appliance's reopens: left to it, or found silent.
    expect(modems[1]!.detail).toMatch(/^\[dead\] .*(is in use by the running appliance|: no answer to AT within 0\.5 s)/);
    expect(modems[0]!.detail).toMatch(/^\[gsm1\] .* is in use by the running appliance \(process \d+\): see GET \/healthz checks\.sms$/);
    expect(checks.find((c) => c.name === 'email.relay')).toMatchObject({ status: 'ok' });
  });
});
