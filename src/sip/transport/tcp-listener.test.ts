import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { sipSection } from '../../config/sections/sip';
import { silentLogger } from '../../log';
import { freePort } from '../../../test/helpers/ports';
import { testAudio } from '../../../test/helpers/test-audio';
import { createStreamFramer } from './stream-framer';
import { listenTcp } from './tcp-listener';
import { createTelephone, type Telephone } from '..';

/**
 * A PBX written by hand, so that it can do what sipp cannot: answer our INVITE on the
 * connection we opened (A), then send the far end's BYE on a NEW connection (B) to the
 * host:port in our Contact (RFC 3261 §18.2.2, §12.2).
 */
interface Seen {
  conn: Socket;
  /** `A1`, `A2`…: connections we opened to the PBX; other names: opened by the PBX. */
  on: string;
  text: string;
}

async function startHandPbx() {
  const seen: Seen[] = [];
  const track = (conn: Socket, on: string) => {
    const framer = createStreamFramer();
    conn.on('data', (d: Buffer) => {
      for (const text of framer.push(d)) seen.push({ conn, on, text });
    });
    conn.on('error', () => undefined);
  };
  const accepted: Socket[] = [];
  const server: Server = createServer((c) => {
    track(c, `A${accepted.push(c)}`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const rtp: UdpSocket = createSocket('udp4');
  let rtpPackets = 0;
  rtp.on('message', () => rtpPackets++);
  await new Promise<void>((r) => rtp.bind(0, '127.0.0.1', () => r()));
  const opened: Socket[] = [];
  return {
    port: (server.address() as { port: number }).port,
    rtpPort: rtp.address().port,
    rtpPackets: () => rtpPackets,
    accepted,
    seen,
    track,
    opened,
    /** The first message matching `pred`, waiting up to 5 s for it (on failure: what was seen). */
    async next(pred: (s: Seen) => boolean): Promise<Seen> {
      await expect.poll(() => seen.some(pred) || seen.map((s) => s.text.split('\r\n')[0]), { timeout: 5000 }).toBe(true);
      return seen.find(pred)!;
    },
    async close() {
      for (const c of [...accepted, ...opened]) c.destroy();
      rtp.close();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

const header = (text: string, name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(text)?.[1] ?? '';

function response(request: string, status: string, toTag: string, body = '') {
  const lines = [
    `SIP/2.0 ${status}`,
    `Via: ${header(request, 'Via')}`,
    `From: ${header(request, 'From')}`,
    `To: ${header(request, 'To')}${toTag ? `;tag=${toTag}` : ''}`,
    `Call-ID: ${header(request, 'Call-ID')}`,
    `CSeq: ${header(request, 'CSeq')}`,
    'Contact: <sip:pbx@127.0.0.1;transport=tcp>',
  ];
  if (body) lines.push('Content-Type: application/sdp');
  lines.push(`Content-Length: ${Buffer.byteLength(body)}`, '', body);
  return lines.join('\r\n');
}

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

describe('SIP over TCP: the listening socket', () => {
  it('takes the far end BYE on a new connection to our Contact and answers on that connection', async () => {
    const pbx = await startHandPbx();
    cleanups.push(() => pbx.close());
    const rtp = await freePort();
    const sip = sipSection.parse({
      server: `127.0.0.1:${pbx.port}`,
      transport: 'tcp',
      local_address: '127.0.0.1',
      local_port: 0,
      rtp_ports: `${rtp}-${rtp + 10}`,
      t1_ms: 50,
    });
    const phone: Telephone = createTelephone(sip, 100, { log: silentLogger() });
    await phone.start();
    cleanups.push(() => phone.stop());

    const outcome = phone.dial({
      number: '5321234567',
      audio: async () => testAudio(500), // 10 s: the BYE must cut it short
      acknowledgedAudio: async () => testAudio(5),
      ringTimeoutMs: 5000,
      answerDelayMs: 0,
      progress: { ringing: () => undefined, answered: () => undefined, digit: () => undefined },
    });

    const invite = await pbx.next((s) => s.text.startsWith('INVITE '));
    const connA = invite.conn;
    const listening = phone.localPort();
    // Via and Contact name the listening port, not connection A's ephemeral source port.
    expect(connA.remotePort).not.toBe(listening);
    expect(header(invite.text, 'Via')).toMatch(new RegExp(`^SIP/2\\.0/TCP 127\\.0\\.0\\.1:${listening};branch=`));
    const contact = /<sip:([^@>]+)@([^:>;]+):(\d+);transport=tcp>/.exec(header(invite.text, 'Contact'));
    expect(contact).not.toBeNull();
    const [, contactUser, contactHost, contactPort] = contact!;
    expect(Number(contactPort)).toBe(listening);

    const sdp = ['v=0', 'o=pbx 1 1 IN IP4 127.0.0.1', 's=-', 'c=IN IP4 127.0.0.1', 't=0 0', `m=audio ${pbx.rtpPort} RTP/AVP 0 101`, 'a=rtpmap:0 PCMU/8000', 'a=rtpmap:101 telephone-event/8000', 'a=fmtp:101 0-16', 'a=ptime:20', ''].join('\r\n');
    connA.write(response(invite.text, '100 Trying', ''));
    connA.write(response(invite.text, '180 Ringing', 'pbx1'));
    const ok = response(invite.text, '200 OK', 'pbx1', sdp);
    connA.write(ok);
    await pbx.next((s) => s.text.startsWith('ACK '));
    await expect.poll(() => pbx.rtpPackets()).toBeGreaterThan(5); // audio goes out

    // Connection B: the PBX dials our Contact, as it would after losing A or from another node.
    const connB = connect({ host: contactHost!, port: Number(contactPort) });
    pbx.opened.push(connB);
    pbx.track(connB, 'B');
    await new Promise<void>((r) => connB.once('connect', () => r()));
    const bye = [
      `BYE sip:${contactUser}@${contactHost}:${contactPort};transport=tcp SIP/2.0`,
      'Via: SIP/2.0/TCP 127.0.0.1:5999;branch=z9hG4bKbyeB1',
      `From: ${header(ok, 'To')}`,
      `To: ${header(invite.text, 'From')}`,
      `Call-ID: ${header(invite.text, 'Call-ID')}`,
      'CSeq: 2 BYE',
      'Max-Forwards: 70',
      'Content-Length: 0',
      '',
      '',
    ].join('\r\n');
    connB.write(bye);

    const byeOk = await pbx.next((s) => s.text.startsWith('SIP/2.0 200') && / BYE$/m.test(header(s.text, 'CSeq')));
    expect(byeOk.on).toBe('B');
    expect(header(byeOk.text, 'Via')).toBe('SIP/2.0/TCP 127.0.0.1:5999;branch=z9hG4bKbyeB1');
    expect(await outcome).toMatchObject({ code: 'INTERRUPTED' });
    expect(pbx.rtpPackets()).toBeGreaterThan(5);
    // Nothing but the answer to B's BYE went out on B; we sent no BYE of our own.
    expect(pbx.seen.filter((s) => s.on === 'B').map((s) => s.text.split(' ')[0])).toEqual(['SIP/2.0']);
    expect(pbx.accepted).toHaveLength(1); // everything else on connection A
    expect(pbx.seen.some((s) => s.text.startsWith('BYE '))).toBe(false);
  });

  it('gives the listening port back when the trunk stops', async () => {
    const pbx = await startHandPbx();
    cleanups.push(() => pbx.close());
    const rtp = await freePort();
    const sip = sipSection.parse({ server: `127.0.0.1:${pbx.port}`, transport: 'tcp', local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 10}` });
    const phone = createTelephone(sip, 100, { log: silentLogger() });
    await phone.start();
    const port = phone.localPort();
    const peer = connect({ host: '127.0.0.1', port });
    await new Promise<void>((r) => peer.once('connect', () => r()));
    const peerClosed = new Promise<void>((r) => peer.once('close', () => r()));
    peer.on('error', () => undefined);
    peer.resume();
    await phone.stop();
    await peerClosed; // the accepted connection was closed with the listener
    const free = createServer();
    await new Promise<void>((resolve, reject) => {
      free.once('error', reject);
      free.listen(port, '127.0.0.1', () => resolve());
    });
    await new Promise<void>((r) => free.close(() => r()));
  });

  it('closes connections beyond the cap at once and keeps serving those it holds', async () => {
    const got: string[] = [];
    const listener = await listenTcp({ host: '127.0.0.1', port: 0, log: silentLogger(), maxConnections: 2, onMessage: (m) => got.push(m), onClosed: () => undefined });
    const open = () =>
      new Promise<Socket>((resolve) => {
        const c = connect({ host: '127.0.0.1', port: listener.port() }, () => resolve(c));
      });
    const conns = [await open(), await open()];
    const third = await open();
    const thirdClosed = new Promise<void>((r) => third.on('close', () => r()));
    third.on('error', () => undefined);
    await thirdClosed;
    conns[1]!.write('OPTIONS sip:a@127.0.0.1 SIP/2.0\r\nContent-Length: 0\r\n\r\n');
    await expect.poll(() => got.length).toBe(1);
    for (const c of conns) c.destroy();
    await listener.close();
  });
});
