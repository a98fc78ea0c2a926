import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { smsSection } from '../config/sections/sms';
import { silentLogger } from '../log';
import { startGsmModem, type GsmModem } from '../../test/helpers/gsm-modem';
import { until } from '../../test/helpers/until';
import { createModem, type InboundText, type Modem } from './modem';
import { toUcs2Hex } from './text-coding';

/**
 * The modem session against a GSM modem simulated on a pseudo-terminal (test/helpers/gsm-modem.ts,
 * 3GPP TS 27.005 / 27.007): what it sends is checked byte for byte as the modem received it.
 */
const sms = smsSection.parse({ at_timeout_s: 1, status_interval_s: 0.3, reopen_s: 0.2, retry_window_s: 10 });

let modems: GsmModem[] = [];
let sessions: Modem[] = [];
afterEach(async () => {
  await Promise.all(sessions.map((s) => s.stop()));
  await Promise.all(modems.map((m) => m.stop()));
  modems = [];
  sessions = [];
});

async function rig(options: { pin?: string; configPin?: string; silent?: boolean; creg?: number } = {}) {
  const device = join(mkdtempSync(join(tmpdir(), 'va-gsm-')), 'ttyUSB2');
  const modem = await startGsmModem({ device, pin: options.pin, silent: options.silent, creg: options.creg });
  modems.push(modem);
  const inbound: InboundText[] = [];
  const session = createModem({ name: 'gsm1', device, baud: 115200, pin: options.configPin ?? options.pin }, sms, { log: silentLogger(), onText: (t) => inbound.push(t) });
  sessions.push(session);
  session.start();
  return { modem, session, inbound, device };
}

const ready = (s: Modem) => until('modem ready', () => s.status().state === 'ready', 10_000, 20);

describe('GSM modem session', () => {
  it('handshakes with echo on, enters the PIN the SIM asks for, sets text mode and reads registration and signal', async () => {
    const { modem, session } = await rig({ pin: '4321' });
    await ready(session);
    expect(modem.pinTries).toEqual(['4321']);
    const cmds = modem.commands();
    expect(cmds.slice(0, 6)).toEqual(['AT', 'ATE0', 'AT+CMEE=1', 'AT+CPIN?', 'AT+CPIN="4321"', 'AT+CPIN?']);
    expect(cmds).toContain('AT+CMGF=1');
    expect(cmds).toContain('AT+CNMI=2,1,0,0,0');
    const st = session.status();
    expect(st.sim).toBe('READY');
    expect(st.registration).toEqual({ stat: 1, registered: true, text: 'registered, home network' });
    expect(st.signal).toEqual({ rssi: 20, dbm: -73 });
    // Checked again at each refresh (the second path's engine loop, every sms.status_interval_s): a change shows.
    modem.creg = 2;
    modem.rssi = 99;
    await session.refresh();
    await until('registration re-read', () => session.status().registration?.stat === 2, 5000, 20);
    await until('signal re-read', () => session.status().signal?.rssi === 99, 5000, 20);
    expect(session.status().signal!.dbm).toBeNull();
  });

  it('sends a GSM 7-bit text in IRA and a Turkish one in UCS-2, the number too, byte for byte', async () => {
    const { modem, session } = await rig();
    await ready(session);
    const a = await session.send('+905321234567', 'Disk full on db1 [ack: 1]');
    expect(a).toMatchObject({ ok: true, parts: 1, failures: [] });
    const b = await session.send('+905321234567', 'Şebeke arızası: İstanbul çağrı merkezi düştü');
    expect(b).toMatchObject({ ok: true, parts: 1 });
    expect(modem.sent).toEqual([
      { to: '+905321234567', body: 'Disk full on db1 [ack: 1]', charset: 'IRA', dcs: 0 },
      { to: toUcs2Hex('+905321234567'), body: toUcs2Hex('Şebeke arızası: İstanbul çağrı merkezi düştü'), charset: 'UCS2', dcs: 8 },
    ]);
    // On the wire: the command, the prompt's answer, the text and Ctrl-Z.
    const wire = modem.received();
    // (IRA is already in force: the start listed stored texts in it.)
    expect(wire).toContain('AT+CSMP=17,167,0,0\rAT+CMGS="+905321234567"\rDisk full on db1 [ack: 1]\x1a');
    expect(wire).toContain(
      'AT+CSCS="UCS2"\rAT+CSMP=17,167,0,8\rAT+CMGS="002B003900300035003300320031003200330034003500360037"\r' +
        // Ş e b e k e ␠ a r ı z a s ı (U+015E, U+0131 …), then the rest of the text.
        '015E006500620065006B00650020006100720131007A006100730131003A0020',
    );
  });

  it('splits a 2,000-character text into numbered parts that each fit, the modem receiving exactly those', async () => {
    const { modem, session } = await rig();
    await ready(session);
    const long = Array.from({ length: 400 }, (_, i) => `w${i % 10}xyz`).join(' ').slice(0, 2000);
    expect(long.length).toBe(2000);
    const r = await session.send('+905321234567', long);
    expect(r.ok).toBe(true);
    expect(modem.sent.length).toBe(r.ok ? r.parts : -1);
    expect(modem.sent.length).toBe(14);
    modem.sent.forEach((s, i) => {
      expect(s.body.startsWith(`(${i + 1}/14) `)).toBe(true);
      expect(s.body.length).toBeLessThanOrEqual(160);
      expect(s.dcs).toBe(0);
    });
    expect(modem.sent.map((s) => s.body.replace(/^\(\d+\/\d+\) /, '')).join(' ')).toBe(long);
  });

  it('retries a +CMS ERROR and records the modem words', async () => {
    const { modem, session } = await rig();
    await ready(session);
    modem.failNextSend('+CMS ERROR: 500');
    const r = await session.send('+905321234567', 'retry me');
    expect(r).toMatchObject({ ok: true, parts: 1, failures: ['+CMS ERROR: 500'] });
    expect(modem.sent.map((s) => s.body)).toEqual(['retry me']);
  });

  it('gives up after 3 retries (4 attempts) with each failure in the modem words', async () => {
    const { modem, session } = await rig();
    await ready(session);
    const cmgs = () => modem.commands().filter((c) => c.startsWith('AT+CMGS')).length;
    for (const code of [500, 331, 331, 38]) modem.failNextSend(`+CMS ERROR: ${code}`);
    const r = await session.send('+905321234567', 'never');
    expect(r).toEqual({ ok: false, modem: 'gsm1', reason: '+CMS ERROR: 38', failures: ['+CMS ERROR: 500', '+CMS ERROR: 331', '+CMS ERROR: 331', '+CMS ERROR: 38'] });
    expect(cmgs()).toBe(4);
    expect(modem.sent).toEqual([]);
  });

  it('reads an incoming text on +CMTI with AT+CMGR in UCS-2, hands it on and deletes it', async () => {
    const { modem, session, inbound } = await rig();
    await ready(session);
    const i = modem.deliver('+905321234567', 'ack ğüşıöç 42');
    await until('text handed on', () => inbound.length === 1, 5000, 20);
    expect(inbound[0]).toEqual({ modem: 'gsm1', from: '+905321234567', body: 'ack ğüşıöç 42', truncated: false });
    expect(modem.commands()).toContain(`AT+CMGR=${i}`);
    await until('deleted', () => modem.stored().size === 0, 5000, 20);
    expect(modem.commands()).toContain(`AT+CMGD=${i}`);
  });

  it('reads the texts that waited on the SIM while nobody listened, at start', async () => {
    const device = join(mkdtempSync(join(tmpdir(), 'va-gsm-')), 'ttyUSB2');
    const modem = await startGsmModem({ device });
    modems.push(modem);
    modem.deliver('+905321234567', 'ack K7Q2', false);
    modem.deliver('+905551112233', 'çözüldü', false);
    const inbound: InboundText[] = [];
    const session = createModem({ name: 'gsm1', device, baud: 115200 }, sms, { log: silentLogger(), onText: (t) => inbound.push(t) });
    sessions.push(session);
    session.start();
    await until('both read', () => inbound.length === 2, 5000, 20);
    expect(inbound.map((t) => [t.from, t.body])).toEqual([
      ['+905321234567', 'ack K7Q2'],
      ['+905551112233', 'çözüldü'],
    ]);
    await until('deleted', () => modem.stored().size === 0, 5000, 20);
  });

  it('hands on a 2,000-character reply cut to 1,600 characters', async () => {
    const { modem, session, inbound } = await rig();
    await ready(session);
    modem.deliver('+905321234567', 'ş'.repeat(2000));
    await until('text handed on', () => inbound.length === 1, 5000, 20);
    expect(inbound[0]!.body).toBe('ş'.repeat(1600));
    expect(inbound[0]!.truncated).toBe(true);
  });

  it('survives the device vanishing mid-send and coming back: the text goes once it is back', async () => {
    const { modem, session } = await rig();
    await ready(session);
    modem.vanishAtNextPrompt();
    const sending = session.send('+905321234567', 'through the unplug');
    await until('modem lost', () => session.status().state !== 'ready', 5000, 5);
    await Bun.sleep(300);
    await modem.appear();
    const r = await sending;
    expect(r.ok).toBe(true);
    expect(r.failures.length).toBeGreaterThanOrEqual(1);
    expect(modem.sent.map((s) => s.body)).toEqual(['through the unplug']);
    // The new line was set up from the start again.
    expect(modem.commands().filter((c) => c === 'AT').length).toBeGreaterThanOrEqual(2);
    expect(session.status().state).toBe('ready');
  });

  it('ignores binary garbage on the line and keeps working', async () => {
    const { modem, session, inbound } = await rig();
    await ready(session);
    modem.write(new Uint8Array([0xff, 0x00, 0xfe, 0x0d, 0x0a, 0x80, 0x81, 0x1b, 0x5b, 0x0d, 0x0a, ...new Uint8Array(5000).fill(0xaa)]));
    modem.write('\r\n');
    const r = await session.send('+905321234567', 'after the noise');
    expect(r.ok).toBe(true);
    modem.deliver('+905321234567', '1');
    await until('text handed on', () => inbound.length === 1, 5000, 20);
    expect(inbound[0]!.body).toBe('1');
  });

  it('a modem that never answers AT: a clear error, tried again, a send fails with why', async () => {
    const { session } = await rig({ silent: true });
    await until('no answer recorded', () => session.status().lastError === 'no answer to AT within 1 s', 5000, 20);
    expect(['lost', 'opening', 'handshaking']).toContain(session.status().state);
    const short = createModem({ name: 'x', device: '/nonexistent/ttyUSB9', baud: 115200 }, { ...sms, retry_window_s: 0.5 }, { log: silentLogger(), onText: () => {} });
    sessions.push(short);
    short.start();
    const r = await short.send('+905321234567', 'nobody');
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.reason).toMatch(/modem x is (lost|opening): cannot (open|set up) \/nonexistent\/ttyUSB9/);
  });

  it('a wrong PIN is entered once and never again: the modem stays failed with why', async () => {
    const { modem, session } = await rig({ pin: '1111', configPin: '2222' });
    await until('failed', () => session.status().state === 'failed', 5000, 20);
    expect(session.status().lastError).toBe('the SIM refused the PIN: +CME ERROR: 16');
    await Bun.sleep(500);
    expect(modem.pinTries).toEqual(['2222']);
  });
});
