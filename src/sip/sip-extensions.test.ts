import { describe, expect, it } from 'vitest';
import { sipSection } from '../config/sections/sip';
import { silentLogger } from '../log';
import { freePort } from '../../test/helpers/ports';
import { startSipp } from '../../test/helpers/sipp';
import { testAudio } from '../../test/helpers/test-audio';
import { createTelephone, type Telephone } from '.';
import { stoppedAfterEach } from '../../test/helpers/test-phone';

/**
 * The SIP extensions a PBX may insist on (issue 11 items 3 and 4): 100rel (RFC 3262) and
 * session timers (RFC 4028), against sipp scenarios sending what Asterisk/PJSIP sends.
 */
const { peers, phones } = stoppedAfterEach();

async function phoneFor(serverPort: number, extra: Record<string, unknown> = {}) {
  const rtp = await freePort();
  const sip = sipSection.parse({ server: `127.0.0.1:${serverPort}`, local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 20}`, t1_ms: 50, t2_ms: 400, ...extra });
  const messages: { dir: 'in' | 'out'; text: string; at: number }[] = [];
  const phone = createTelephone(sip, 100, { log: silentLogger(), onWire: (dir, text) => messages.push({ dir, text, at: Date.now() }) });
  await phone.start();
  phones.push(phone);
  return { phone, messages };
}

const dial = (phone: Telephone, frames: number) =>
  phone.dial({
    number: '5321234567',
    audio: async () => testAudio(frames),
    acknowledgedAudio: async () => testAudio(5, 2),
    ringTimeoutMs: 5000,
    answerDelayMs: 100,
    progress: { ringing: () => undefined, answered: () => undefined, digit: () => undefined },
  });

const startLine = (text: string) => text.slice(0, text.indexOf('\r\n'));
const header = (text: string, name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'mi').exec(text.slice(0, text.indexOf('\r\n\r\n')))?.[1];
const bodyOf = (text: string) => text.slice(text.indexOf('\r\n\r\n') + 4);

describe('100rel (RFC 3262)', () => {
  it('says Supported: 100rel, timer; after 421 Require: 100rel it INVITEs again requiring it, and PRACKs the reliable 183', async () => {
    const sipp = await startSipp({ scenario: 'require-100rel.xml' });
    peers.push(sipp);
    const { phone, messages } = await phoneFor(sipp.port);
    expect(await dial(phone, 25)).toMatchObject({ code: 'COMPLETED' });
    expect(await sipp.exited, sipp.output()).toBe(0); // it checked Supported, Require and the PRACK's RAck
    const out = messages.filter((m) => m.dir === 'out' && !m.text.startsWith('SIP/2.0')).map((m) => startLine(m.text).split(' ')[0]);
    expect(out).toEqual(['INVITE', 'ACK', 'INVITE', 'PRACK', 'ACK', 'BYE']);
    const [first, second] = messages.filter((m) => m.dir === 'out' && m.text.startsWith('INVITE ')).map((m) => m.text);
    expect(header(first!, 'Supported')).toBe('100rel, timer');
    expect(header(first!, 'Require')).toBeUndefined();
    expect(header(second!, 'Require')).toBe('100rel');
    // The same call: one Call-ID, the next CSeq (RFC 3261 §8.1.3.5).
    expect(header(second!, 'Call-ID')).toBe(header(first!, 'Call-ID'));
    expect(header(second!, 'CSeq')).toBe('2 INVITE');
  });
});

describe('session timers (RFC 4028)', () => {
  it('made the refresher by Session-Expires: 4;refresher=uac, refreshes within 2 s with the same SDP and completes the call', async () => {
    const sipp = await startSipp({ scenario: 'session-timer.xml', fill: { se: 4, refresh_within_ms: 2000 } });
    peers.push(sipp);
    const { phone, messages } = await phoneFor(sipp.port);
    expect(await dial(phone, 150)).toMatchObject({ code: 'COMPLETED', reason: 'message played' }); // 3 s
    expect(await sipp.exited, sipp.output()).toBe(0); // the refresh came in time, asking for 4;refresher=uac
    const invites = messages.filter((m) => m.dir === 'out' && m.text.startsWith('INVITE '));
    const answered = messages.find((m) => m.dir === 'in' && m.text.startsWith('SIP/2.0 200') && / INVITE$/m.test(header(m.text, 'CSeq') ?? ''))!;
    expect(invites).toHaveLength(2);
    expect(invites[1]!.at - answered.at).toBeLessThan(2000);
    expect(header(invites[1]!.text, 'Session-Expires')).toBe('4;refresher=uac');
    // The refresh repeats our SDP as it was: nothing changed, so neither did o= version (RFC 3264 §8).
    expect(bodyOf(invites[1]!.text)).toBe(bodyOf(invites[0]!.text));
  });

  it('hangs up when a refresh gets 481 (the PBX lost the session), and the message counts as not heard', async () => {
    const sipp = await startSipp({ scenario: 'session-refresh-481.xml', fill: { se: 3, refresh_within_ms: 2000 } });
    peers.push(sipp);
    const { phone, messages } = await phoneFor(sipp.port);
    const started = Date.now();
    expect(await dial(phone, 250)).toMatchObject({ code: 'INTERRUPTED' }); // a 5 s message, cut at ~1 s
    expect(Date.now() - started).toBeLessThan(4000);
    expect(await sipp.exited, sipp.output()).toBe(0); // it got our BYE
    expect(messages.filter((m) => m.dir === 'out' && /^(INVITE|BYE) /.test(m.text)).map((m) => startLine(m.text).split(' ')[0])).toEqual(['INVITE', 'INVITE', 'BYE']);
  });

  it('answers the PBX refreshing by re-INVITE with the interval agreed, and only what its offer holds', async () => {
    const sipp = await startSipp({ scenario: 'reinvite-refresh.xml', keys: { listen_ms: 300 } });
    peers.push(sipp);
    const { phone, messages } = await phoneFor(sipp.port);
    expect(await dial(phone, 50)).toMatchObject({ code: 'COMPLETED', reason: 'message played' });
    expect(await sipp.exited, sipp.output()).toBe(0); // it checked Session-Expires: 90;refresher=uac in our 200
    const invite = messages.find((m) => m.dir === 'out' && m.text.startsWith('INVITE '))!;
    const refreshOk = messages.find((m) => m.dir === 'out' && m.text.startsWith('SIP/2.0 200') && / INVITE$/m.test(header(m.text, 'CSeq') ?? ''))!;
    expect(header(refreshOk.text, 'Require')).toBe('timer');
    // Our last SDP was the INVITE's offer (PCMU and PCMA): the answer holds only what this offer
    // holds (PCMU), a new body, so the same session id with the next version (RFC 3264 §6, §8).
    const origin = (t: string) => /^o=\S+ (\S+) (\d+) /m.exec(bodyOf(t))!.slice(1);
    expect(origin(refreshOk.text)).toEqual([origin(invite.text)[0], '2']);
    expect(bodyOf(refreshOk.text)).toMatch(/^m=audio \d+ RTP\/AVP 0 101\r$/m);
  });

  it('after 422 with Min-SE it INVITEs again with Session-Expires and Min-SE raised to it', async () => {
    const sipp = await startSipp({ scenario: 'interval-too-small.xml', fill: { min_se: 3600 } });
    peers.push(sipp);
    const { phone, messages } = await phoneFor(sipp.port, { session_expires_s: 1800, min_se_s: 90 });
    expect(await dial(phone, 25)).toMatchObject({ code: 'COMPLETED' });
    expect(await sipp.exited, sipp.output()).toBe(0);
    const [first, second] = messages.filter((m) => m.dir === 'out' && m.text.startsWith('INVITE ')).map((m) => m.text);
    expect([header(first!, 'Session-Expires'), header(first!, 'Min-SE')]).toEqual(['1800', '90']);
    expect([header(second!, 'Session-Expires'), header(second!, 'Min-SE')]).toEqual(['3600', '3600']);
  });

  it('answers the PBX refreshing by UPDATE (no more 405), and applies an UPDATE offer to the stream', async () => {
    const { createSocket } = await import('node:dgram');
    const { decodeRtp } = await import('./rtp/packet');
    const ports = await Promise.all([freePort(), freePort()]);
    const got: number[][] = [[], []];
    const sockets = ports.map((port, i) => {
      const s = createSocket('udp4');
      s.bind(port, '127.0.0.1');
      s.on('message', (m) => got[i]!.push(decodeRtp(m)!.payloadType));
      return s;
    });
    try {
      const sipp = await startSipp({ scenario: 'update.xml', keys: { listen_ms: 300 }, fill: { first_port: ports[0]!, next_port: ports[1]! } });
      peers.push(sipp);
      const { phone, messages } = await phoneFor(sipp.port);
      expect(await dial(phone, 75)).toMatchObject({ code: 'COMPLETED', reason: 'message played' });
      expect(await sipp.exited, sipp.output()).toBe(0); // it checked both 200s
      const updateOks = messages.filter((m) => m.dir === 'out' && m.text.startsWith('SIP/2.0 200') && / UPDATE$/m.test(header(m.text, 'CSeq') ?? ''));
      expect(updateOks).toHaveLength(2);
      expect(header(updateOks[0]!.text, 'Session-Expires')).toBe('90;refresher=uac');
      expect(got[0]!.length).toBeGreaterThan(10);
      expect(got[1]!.length).toBeGreaterThan(40);
      expect(got[1]!.every((pt) => pt === 8)).toBe(true);
    } finally {
      for (const s of sockets) s.close();
    }
  });
});
