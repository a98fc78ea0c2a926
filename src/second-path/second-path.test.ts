import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startGsmModem, type GsmModem } from '../../test/helpers/gsm-modem';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { parsePromText, sampleValue } from '../../test/helpers/prom-text';
import { until } from '../../test/helpers/until';
import { configSchema } from '../config';
import { createHttpApp } from '../http/app';
import { createRateLimiter } from '../http/rate-limit';
import { silentLogger } from '../log';
import { metrics } from '../metrics';
import { createServices } from '../services';
import type { Store } from '../store';
import { createSecondPath, type IncomingText, type SecondPath } from '.';

/**
 * The second path as the appliance wires it (docs/second-path.md "Operations"): a text through the
 * first ready modem, one coming back to the listeners, and what /healthz checks.sms and /metrics
 * show of the modems.
 */
let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function rig() {
  const dir = mkdtempSync(join(tmpdir(), 'va-second-'));
  const gsm1: GsmModem = await startGsmModem({ device: join(dir, 'ttyUSB2'), rssi: 15 });
  cleanup.push(() => gsm1.stop());
  const config = configSchema.parse({
    sms: { modems: [{ name: 'gsm0', device: join(dir, 'absent') }, { name: 'gsm1', device: gsm1.device }], at_timeout_s: 1, reopen_s: 0.2, status_interval_s: 0.3, retry_window_s: 2 },
  });
  const path: SecondPath = createSecondPath(config, { log: silentLogger() });
  path.start();
  cleanup.push(() => path.stop());
  const clock = manualClock('2026-12-02T03:00:00Z');
  const store: Store = await tempStore(clock);
  cleanup.push(() => store.close());
  const services = createServices({ store, clock, config });
  const http = createHttpApp({
    store,
    clock,
    log: silentLogger(),
    config,
    intake: { store, clock, timeZone: 'Europe/Istanbul', alerts: services.alerts },
    services,
    rateLimiter: createRateLimiter(0, clock),
    smsStatus: () => path.status(),
  });
  const get = async (p: string) => http.handle(new Request(`http://localhost${p}`));
  return { gsm1, path, get };
}

describe('the second path', () => {
  it('texts through the first ready modem, hands replies to listeners, and shows the modems in /healthz and /metrics', async () => {
    const { gsm1, path, get } = await rig();
    await until('gsm1 ready', () => path.status().modems.find((m) => m.name === 'gsm1')?.state === 'ready', 10_000, 20);
    const before = parsePromText(await (await get('/metrics')).text());
    const sentBefore = sampleValue(before, 'voice_alert_texts_sent_total', { path: 'modem' }) ?? 0;

    const r = await path.sendText('+905321234567', 'ALERT db1: reply 1');
    expect(r).toEqual({ ok: true, path: 'modem', via: 'gsm1', parts: 1, failures: [] });
    expect(gsm1.sent.map((s) => s.body)).toEqual(['ALERT db1: reply 1']);

    const got: IncomingText[] = [];
    path.onText((t) => got.push(t));
    gsm1.deliver('+905321234567', '1');
    await until('reply handed on', () => got.length === 1, 5000, 20);
    expect(got[0]).toEqual({ path: 'modem', via: 'gsm1', from: '+905321234567', body: '1', truncated: false });

    const health = (await (await get('/healthz')).json()) as { checks: { sms: unknown } };
    expect(health.checks.sms).toMatchObject({
      via: 'modem',
      state: 'up',
      modems: {
        gsm0: { state: expect.stringMatching(/^(lost|opening)$/), sim: null, registered: null, signal_dbm: null, error: expect.stringContaining('absent') },
        gsm1: { state: 'ready', sim: 'READY', registered: true, registration: 'registered, home network', signal_dbm: -83, error: null },
      },
    });
    const m = parsePromText(await (await get('/metrics')).text());
    expect(sampleValue(m, 'voice_alert_texts_sent_total', { path: 'modem' })).toBe(sentBefore + 1);
    expect(sampleValue(m, 'voice_alert_texts_received_total', { path: 'modem' })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(m, 'voice_alert_modem_up', { modem: 'gsm1' })).toBe(1);
    expect(sampleValue(m, 'voice_alert_modem_up', { modem: 'gsm0' })).toBe(0);
    expect(sampleValue(m, 'voice_alert_modem_registered', { modem: 'gsm1' })).toBe(1);
    expect(sampleValue(m, 'voice_alert_modem_signal_dbm', { modem: 'gsm1' })).toBe(-83);
    expect(sampleValue(m, 'voice_alert_modem_signal_dbm', { modem: 'gsm0' })).toBeUndefined();

    // Unregistered: still ready, but checks.sms is down and the gauge says so.
    gsm1.creg = 3;
    await path.loop.tick(); // the engine's sms-modems tick
    await until('registration denied seen', () => path.status().state === 'down', 5000, 20);
    const m2 = parsePromText(await (await get('/metrics')).text());
    expect(sampleValue(m2, 'voice_alert_modem_registered', { modem: 'gsm1' })).toBe(0);
  });

  it('a text nobody can send fails with why and is counted; e-mail without a relay says so', async () => {
    const config = configSchema.parse({ sms: { modems: [{ name: 'gsm0', device: '/nonexistent/ttyUSB0' }], retry_window_s: 0.5, reopen_s: 0.2 } });
    const path = createSecondPath(config, { log: silentLogger() });
    path.start();
    cleanup.push(() => path.stop());
    const failedBefore = await counted(metrics.textsFailed, { path: 'modem' });
    const sentBefore = await counted(metrics.textsSent, { path: 'modem' });
    const r = await path.sendText('+905321234567', 'x');
    expect(r.ok).toBe(false);
    // /metrics voice_alert_texts_failed_total{path="modem"}: one more, none sent.
    expect(await counted(metrics.textsFailed, { path: 'modem' })).toBe(failedBefore + 1);
    expect(await counted(metrics.textsSent, { path: 'modem' })).toBe(sentBefore);
    expect(r.ok ? '' : r.reason).toMatch(/^gsm0: modem gsm0 is (lost|opening): cannot (open|set up) \/nonexistent\/ttyUSB0/);
    expect(await path.sendEmail('a@example.lan', 's', 'b')).toEqual({ ok: false, reason: '[email] smtp_url is not set' });
    const sip = createSecondPath(configSchema.parse({ sms: { via: 'sip' } }), { log: silentLogger() });
    expect(await sip.sendText('5321234567', 'x')).toEqual({ ok: false, path: 'sip', reason: 'no SIP trunk configured', failures: [] });
    expect(sip.status()).toEqual({ via: 'sip', state: 'none', modems: [], email: 'none' });
  });
});

/** A counter's value for the series with these labels (0 before its first increment). */
async function counted(counter: { get(): Promise<{ values: { labels: Record<string, unknown>; value: number }[] }> }, labels: Record<string, string>) {
  const { values } = await counter.get();
  return values.find((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x))?.value ?? 0;
}
