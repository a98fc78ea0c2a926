import { createSocket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { sipSection } from '../config/sections/sip';
import { silentLogger } from '../log';
import { freePort } from '../../test/helpers/ports';
import { startSipp, type SippPeer } from '../../test/helpers/sipp';
import { testAudio } from '../../test/helpers/test-audio';
import { createTelephone, type Telephone } from '.';

/**
 * The trunk over IPv6 on ::1 against sipp (`-i ::1 -mi ::1`): Via sent-by and Contact in
 * brackets, SDP in IN IP6, sockets of the IPv6 family for SIP (UDP, TCP) and RTP.
 */
let peers: SippPeer[] = [];
let phones: Telephone[] = [];
let sockets: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(phones.map((p) => p.stop()));
  await Promise.all(peers.map((p) => p.stop()));
  await Promise.all(sockets.map((s) => s.close()));
  peers = [];
  phones = [];
  sockets = [];
});

async function phoneFor(serverPort: number, transport: 'udp' | 'tcp') {
  const rtp = await freePort('::1');
  const sip = sipSection.parse({
    server: `[::1]:${serverPort}`,
    transport,
    local_address: '::1',
    local_port: 0,
    rtp_ports: `${rtp}-${rtp + 20}`,
    t1_ms: 50,
    t2_ms: 400,
  });
  const wire: string[] = [];
  const phone = createTelephone(sip, 100, { log: silentLogger(), onWire: (d, m) => wire.push(`${d} ${m}`) });
  await phone.start();
  phones.push(phone);
  return { phone, wire };
}

const dial = (phone: Telephone, frames: number, events: string[] = []) =>
  phone.dial({
    number: '5321234567',
    audio: async () => testAudio(frames),
    acknowledgedAudio: async () => testAudio(5, 2),
    ringTimeoutMs: 5000,
    answerDelayMs: 100,
    progress: {
      ringing: (s) => events.push(`ringing ${s}`),
      answered: (codec) => events.push(`answered ${codec}`),
      digit: (d) => events.push(`digit ${d}`),
    },
  });

/**
 * Where sipp's SDP answer sends our RTP (sipp keeps no count of what it received once it
 * exits): a socket on ::1 that notes each packet's source and payload type.
 */
async function rtpWitness() {
  const s = createSocket('udp6');
  const packets: { from: string; pt: number }[] = [];
  s.on('message', (m, r) => packets.push({ from: r.address, pt: m[1]! & 0x7f }));
  await new Promise<void>((r) => s.bind(0, '::1', () => r()));
  let closing: Promise<void> | null = null;
  const witness = {
    port: s.address().port,
    packets,
    close: () => (closing ??= new Promise<void>((r) => s.close(() => r()))),
  };
  sockets.push(witness);
  return witness;
}

describe.each(['udp', 'tcp'] as const)('dialing sipp on ::1 over %s', (transport) => {
  const proto = transport.toUpperCase();

  it('rings, answers, plays RTP to [::1] and hangs up', async () => {
    const rtp = await rtpWitness();
    const sipp = await startSipp({
      scenario: 'answer-media-at.xml',
      transport,
      ip: '::1',
      fill: { media_addr: '::1', media_ip_type: 6, media_port: rtp.port },
    });
    peers.push(sipp);
    const { phone, wire } = await phoneFor(sipp.port, transport);
    const events: string[] = [];
    expect(await dial(phone, 25, events)).toMatchObject({ code: 'COMPLETED', status: 200, remoteHangup: false });
    expect(events).toEqual(['ringing 180', 'answered PCMU']);
    expect(await sipp.exited).toBe(0);

    const invite = wire.find((m) => m.startsWith('out INVITE '))!;
    const port = phone.localPort();
    expect(invite).toMatch(/^out INVITE sip:5321234567@\[::1\] SIP\/2\.0\r\n/);
    expect(invite).toMatch(new RegExp(`^Via: SIP/2\\.0/${proto} \\[::1\\]:${port};branch=z9hG4bK\\S+;rport\\r$`, 'm'));
    const contact = transport === 'tcp' ? `<sip:voice-alert@\\[::1\\]:${port};transport=tcp>` : `<sip:voice-alert@\\[::1\\]:${port}>`;
    expect(invite).toMatch(new RegExp(`^Contact: ${contact}\\r$`, 'm'));
    expect(invite).toMatch(/^From: "Voice Alert" <sip:voice-alert@\[::1\]>;tag=/m);
    expect(invite).toMatch(/^o=voice-alert \d+ \d+ IN IP6 ::1\r$/m);
    expect(invite).toMatch(/^c=IN IP6 ::1\r$/m);
    // sip.js took the responses (their Via names [::1] as ours), and the BYE went out.
    expect(wire.filter((m) => m.startsWith('out ')).map((m) => m.split(' ')[1])).toEqual(['INVITE', 'ACK', 'BYE']);

    // 25 frames of message plus the silence around it, all in PCMU, from our socket on ::1.
    await rtp.close();
    expect(rtp.packets.length).toBeGreaterThan(25);
    expect(new Set(rtp.packets.map((p) => `${p.from} ${p.pt}`))).toEqual(new Set(['::1 0']));
  });

  it('hears keypad 1 (RFC 4733) from [::1] as acknowledged', async () => {
    const sipp = await startSipp({ scenario: 'dtmf.xml', transport, ip: '::1', keys: { listen_ms: 300, digit: 1 } });
    peers.push(sipp);
    const { phone } = await phoneFor(sipp.port, transport);
    const events: string[] = [];
    expect(await dial(phone, 500, events)).toMatchObject({ code: 'ACKNOWLEDGED' });
    expect(events).toContain('digit 1');
    expect(await sipp.exited).toBe(0);
  });
});
