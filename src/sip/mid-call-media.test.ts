import { createSocket, type Socket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { sipSection } from '../config/sections/sip';
import { silentLogger } from '../log';
import { freePort } from '../../test/helpers/ports';
import { startSipp, type SippPeer } from '../../test/helpers/sipp';
import { testAudio } from '../../test/helpers/test-audio';
import { createTelephone, type DialRequest, type Telephone } from '.';
import { decodeRtp } from './rtp/packet';

/**
 * Offer/answer after the call is up (issue 11 item 1, RFC 3264 §8): sipp plays Asterisk
 * with direct_media=yes; the test binds the media ports the PBX's SDP names and counts the
 * RTP that arrives at each, so what is asserted is what went on the wire.
 */
let peers: SippPeer[] = [];
let phones: Telephone[] = [];
let sockets: Socket[] = [];
afterEach(async () => {
  await Promise.all(phones.map((p) => p.stop()));
  await Promise.all(peers.map((p) => p.stop()));
  for (const s of sockets) s.close();
  peers = [];
  phones = [];
  sockets = [];
});

async function phoneFor(serverPort: number) {
  const rtp = await freePort();
  const sip = sipSection.parse({ server: `127.0.0.1:${serverPort}`, local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 20}`, t1_ms: 50, t2_ms: 400 });
  const messages: { dir: 'in' | 'out'; text: string; at: number }[] = [];
  const phone = createTelephone(sip, 100, { log: silentLogger(), onWire: (dir, text) => messages.push({ dir, text, at: Date.now() }) });
  await phone.start();
  phones.push(phone);
  return { phone, messages };
}

/** A media port of "the PBX" or "the phone": every RTP packet that reaches it, in order. */
async function mediaPort() {
  const port = await freePort();
  const socket = createSocket('udp4');
  sockets.push(socket);
  await new Promise<void>((r) => socket.bind(port, '127.0.0.1', () => r()));
  const got: NonNullable<ReturnType<typeof decodeRtp>>[] = [];
  socket.on('message', (m) => got.push(decodeRtp(m)!));
  return { port, got };
}

const dial = (phone: Telephone, frames: number, extra: Partial<DialRequest> = {}) =>
  phone.dial({
    number: '5321234567',
    audio: async () => testAudio(frames),
    acknowledgedAudio: async () => testAudio(5, 2),
    ringTimeoutMs: 5000,
    answerDelayMs: 100,
    progress: { ringing: () => undefined, answered: () => undefined, digit: () => undefined },
    ...extra,
  });

const bodyOf = (text: string) => text.slice(text.indexOf('\r\n\r\n') + 4);
const originVersion = (text: string) => /^o=\S+ \S+ (\d+) /m.exec(bodyOf(text))?.[1];
/** Our responses to the far end's INVITEs, in order (the initial INVITE is ours: its 200 comes in). */
const ourInviteAnswers = (messages: { dir: string; text: string }[]) =>
  messages.filter((m) => m.dir === 'out' && m.text.startsWith('SIP/2.0 ') && /^CSeq: \d+ INVITE$/m.test(m.text)).map((m) => m.text);

describe('a re-INVITE that moves the media (Asterisk direct_media=yes)', () => {
  it('sends to the new address in the new codec from the switch on, sequence and timestamp running on', async () => {
    const pbx = await mediaPort();
    const handset = await mediaPort();
    const sipp = await startSipp({
      scenario: 'direct-media.xml',
      keys: { listen_ms: 500 },
      fill: { first_port: pbx.port, first_pt: 0, first_name: 'PCMU', next_port: handset.port, next_pt: 8, next_name: 'PCMA' },
    });
    peers.push(sipp);
    const { phone, messages } = await phoneFor(sipp.port);
    const outcome = await dial(phone, 75); // 1.5 s: the move comes 0.5 s in
    expect(outcome).toMatchObject({ code: 'COMPLETED', status: 200, remoteHangup: false });
    expect(await sipp.exited).toBe(0); // it checked our answer: "m=audio … RTP/AVP 8 101", only what it offered

    expect(pbx.got.length).toBeGreaterThan(10);
    expect(handset.got.length).toBeGreaterThan(40);
    expect(pbx.got.every((p) => p.payloadType === 0)).toBe(true);
    expect(handset.got.every((p) => p.payloadType === 8)).toBe(true);
    const all = [...pbx.got, ...handset.got];
    for (let i = 1; i < all.length; i++) {
      expect(all[i]!.sequence).toBe((all[i - 1]!.sequence + 1) & 0xffff);
      expect(all[i]!.timestamp).toBe((all[i - 1]!.timestamp + 160) >>> 0);
    }
  });

  it('raises our o= version when the answer changes and keeps it when the same offer comes again', async () => {
    const pbx = await mediaPort();
    const handset = await mediaPort();
    const sipp = await startSipp({
      scenario: 'direct-media.xml',
      keys: { listen_ms: 200 },
      fill: { first_port: pbx.port, first_pt: 0, first_name: 'PCMU', next_port: handset.port, next_pt: 8, next_name: 'PCMA' },
    });
    peers.push(sipp);
    const { phone, messages } = await phoneFor(sipp.port);
    expect(await dial(phone, 50)).toMatchObject({ code: 'COMPLETED' });
    expect(await sipp.exited).toBe(0);
    const invite = messages.find((m) => m.dir === 'out' && m.text.startsWith('INVITE '))!.text;
    const [moved, again] = ourInviteAnswers(messages);
    expect(originVersion(invite)).toBe('1');
    expect(originVersion(moved!)).toBe('2'); // a new body (PCMA only): RFC 3264 §8
    expect(bodyOf(again!)).toBe(bodyOf(moved!)); // an unchanged offer gets the unchanged answer, version and all
    expect(bodyOf(moved!)).not.toMatch(/rtpmap:0 /); // never a codec the offer did not hold
  });

  it('a re-INVITE without SDP gets our full offer, and the answer in its ACK moves the media', async () => {
    const pbx = await mediaPort();
    const handset = await mediaPort();
    const sipp = await startSipp({
      scenario: 'reinvite-without-sdp.xml',
      keys: { listen_ms: 500 },
      fill: { first_port: pbx.port, first_pt: 0, first_name: 'PCMU', next_port: handset.port, next_pt: 8, next_name: 'PCMA' },
    });
    peers.push(sipp);
    const { phone } = await phoneFor(sipp.port);
    expect(await dial(phone, 75)).toMatchObject({ code: 'COMPLETED', remoteHangup: false });
    expect(await sipp.exited).toBe(0); // it checked our offer: "m=audio … RTP/AVP 0 8 101"
    expect(pbx.got.length).toBeGreaterThan(10);
    expect(handset.got.length).toBeGreaterThan(40);
    expect(handset.got.every((p) => p.payloadType === 8)).toBe(true);
    const all = [...pbx.got, ...handset.got];
    for (let i = 1; i < all.length; i++) expect(all[i]!.sequence).toBe((all[i - 1]!.sequence + 1) & 0xffff);
  });

  it('refuses an offer of G.729 only with 488 and plays on where it was', async () => {
    const pbx = await mediaPort();
    const handset = await mediaPort();
    const sipp = await startSipp({
      scenario: 'reinvite-g729.xml',
      keys: { listen_ms: 300 },
      fill: { first_port: pbx.port, first_pt: 0, first_name: 'PCMU', next_port: handset.port },
    });
    peers.push(sipp);
    const { phone, messages } = await phoneFor(sipp.port);
    expect(await dial(phone, 50)).toMatchObject({ code: 'COMPLETED', remoteHangup: false });
    expect(await sipp.exited).toBe(0); // it got the 488 and then our BYE
    expect(messages.some((m) => m.dir === 'out' && m.text.startsWith('SIP/2.0 488 '))).toBe(true);
    expect(handset.got).toHaveLength(0);
    expect(pbx.got.length).toBeGreaterThan(50); // 1 s of message and the silences around it, all still here
    expect(pbx.got.every((p) => p.payloadType === 0)).toBe(true);
  });
});
