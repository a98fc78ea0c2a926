import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applianceDir, provision, type RunningAppliance } from '../helpers/appliance';
import { startCallbackReceiver } from '../helpers/callback-receiver';
import { startGsmModem, type GsmModem } from '../helpers/gsm-modem';
import { post } from '../helpers/http';
import { freePort } from '../helpers/ports';
import { until } from '../helpers/until';

/**
 * docs/second-path.md "When no trunk is up", issue 48's test through the binary: the trunk
 * points at a closed port (OPTIONS unanswered: down), the GSM modem is simulated on a
 * pseudo-terminal. A person with an `--sms` number is texted at once, their call is not
 * dialled (it waits for its retry with the reason), `1` from another number changes nothing,
 * `1` from theirs acknowledges the alert: the call cancelled, the callbacks sent.
 */
let stops: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const s of stops.reverse()) await s();
  stops = [];
});

const AYSE_SMS = '5321234567';

describe('a call no trunk can place becomes a text, in the binary', () => {
  it("texts the person within the contract's 2 s (with room for a loaded host), does not dial, and her '1' acknowledges", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'va-sms-notrunk-'));
    const gsm1: GsmModem = await startGsmModem({ device: join(dir, 'ttyUSB2') });
    stops.push(() => gsm1.stop());
    const closed = await freePort(); // nothing listens there: every OPTIONS goes unanswered
    const rtp = await freePort();
    const hook = startCallbackReceiver(() => secret);
    stops.push(async () => hook.stop());
    const a = applianceDir({
      // T1 = 50 ms: an unanswered OPTIONS gives up after 64·T1 = 3.2 s; probed every second.
      sip: { server: `127.0.0.1:${closed}`, local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 10}`, t1_ms: 50, options_interval_s: 1 },
      calls: { retry_delays_s: [600] },
      sms: { at_timeout_s: 1, status_interval_s: 0.5, reopen_s: 0.3, modems: [{ name: 'gsm1', device: gsm1.device }] },
    });
    const acc = provision(a);
    const secret = (a.cliJson(['account', 'set-callback', acc.accountId, '--url', hook.url]) as { callback_secret: string }).callback_secret;
    const person = a.cliJson(['person', 'create', acc.accountId, '--name', 'Ayşe', '--phone', '5321111111', '--sms', `+90${AYSE_SMS}`, '--language', 'en', '--json']) as { id: string };
    a.cliJson(['policy', 'create', acc.accountId, '--name', 'oncall', '--step', '+Ayşe:600', '--rounds', '1']);
    const app: RunningAppliance = await a.start();
    stops.push(() => app.stop());
    const headers = { 'x-api-key': acc.apiKey, 'x-api-secret': acc.apiSecret };
    const alertOf = async (id: string) => (await fetch(`${app.url}/api/alerts/${id}`, { headers }).then((r) => r.json())).alert;
    const checks = async () => ((await (await fetch(`${app.url}/healthz`)).json()) as { checks: { trunk: string; sms: { state: string } } }).checks;
    await until('the trunk down and gsm1 up', async () => ((c) => c.trunk === 'down' && c.sms.state === 'up')(await checks()), 20_000, 100);

    const asked = Date.now();
    const r = await post(`${app.url}/api/call`, { api_key: acc.apiKey, api_secret: acc.apiSecret, error_message: 'core switch down', alert_key: 'core', policy: 'oncall' });
    expect(r.status).toBe(200);
    const alertId = (r.json as { alert_id: string }).alert_id;
    await until('the modem got the text', () => gsm1.sent.length >= 1, 10_000, 20);
    // The contract's 2 s on an idle machine; the bound leaves room for a loaded CI host.
    expect(Date.now() - asked).toBeLessThan(5000);
    await until('the call not dialled but texted', async () => (await alertOf(alertId)).calls[0]?.state === 'queued' && (await alertOf(alertId)).calls[0]?.attempts === 1, 10_000, 50);
    const alert = await alertOf(alertId);
    expect(alert.calls[0].last_reason).toBe("failed: no trunk is up: texted to the person's --sms numbers instead; retry in 600 s");
    expect(app.output()).toContain('no trunk is up: the call is not dialled, the person is texted instead');
    expect(app.output()).not.toContain('"msg":"dialing through trunk"');
    // One text: the first call's own (no second one for the same ringing).
    expect(gsm1.sent).toHaveLength(1);
    expect(gsm1.sent[0]!.charset).toBe('IRA');
    expect(gsm1.sent[0]!.to).toMatch(new RegExp(`${AYSE_SMS}$`));
    expect(gsm1.sent[0]!.body).toBe(`ALERT ${alert.short_code}: core switch down\nReply 1 to acknowledge, or "resolve ${alert.short_code}" to resolve.`);
    await until('recorded on the alert', async () => (await alertOf(alertId)).events.length === 1, 5000, 50);
    expect((await alertOf(alertId)).events[0]).toMatchObject({ type: 'sms.sent', address: AYSE_SMS, person_id: person.id, detail: 'modem gsm1' });

    // '1' from a number no person has: read and deleted, nothing changes.
    gsm1.deliver('+905320000000', '1');
    await until('the stranger text read', () => gsm1.stored().size === 0 && gsm1.commands().some((c) => c.startsWith('AT+CMGD=')), 10_000, 20);
    expect((await alertOf(alertId)).state).toBe('open');
    expect((await alertOf(alertId)).calls.map((c: { state: string }) => c.state)).toEqual(['queued']);

    // '1' from Ayşe's number: acknowledged by sms:<number>, the waiting call cancelled, the callbacks sent.
    gsm1.deliver(`+90${AYSE_SMS}`, '1');
    await until('acknowledged by text', async () => (await alertOf(alertId)).state === 'acknowledged', 10_000, 50);
    const done = await alertOf(alertId);
    expect(done.acknowledged_by).toBe(`sms:${AYSE_SMS}`);
    expect(done.calls.map((c: { state: string }) => c.state)).toEqual(['cancelled']);
    expect(done.events.map((e: { type: string; detail: string | null }) => [e.type, e.detail])).toEqual([
      ['sms.sent', 'modem gsm1'],
      ['sms.received', '1'],
    ]);
    await until('the callbacks sent', () => hook.received.some((c) => c.event.type === 'alert.acknowledged'), 10_000, 50);
    const types = hook.received.map((c) => c.event.type);
    expect(types).toContain('sms.sent');
    expect(hook.received.find((c) => c.event.type === 'alert.acknowledged')!.event).toMatchObject({ alert: { id: alertId, state: 'acknowledged' } });
    expect(hook.received.every((c) => c.signatureValid)).toBe(true);
    expect(app.process.exitCode).toBeNull();
  });
});
