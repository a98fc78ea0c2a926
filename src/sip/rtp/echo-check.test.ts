import { createSocket, type Socket } from 'node:dgram';
import { describe, expect, it } from 'vitest';
import { createEchoCheck } from './echo-check';
import { encodeRtp } from './packet';
import { createPacer } from './pacer';
import { startRtpStream } from './stream';

const frame = (n: number) => new Uint8Array(160).fill(n);

describe('echo check (docs/telephony.md "Voice-path self-test")', () => {
  it('counts our frames received back in order', () => {
    const e = createEchoCheck();
    for (let i = 0; i < 10; i++) e.sent(frame(i));
    for (let i = 0; i < 10; i++) e.received(frame(i));
    expect(e.counts()).toEqual({ frames: 10, returned: 10 });
  });

  it('never counts a duplicate, a frame that overtook a later one, or a payload we did not send', () => {
    const e = createEchoCheck();
    for (let i = 0; i < 10; i++) e.sent(frame(i));
    e.received(frame(0));
    e.received(frame(0)); // duplicate
    e.received(frame(3));
    e.received(frame(2)); // out of order: behind 3
    e.received(frame(200)); // not ours
    e.received(new Uint8Array(80).fill(4)); // a part of one is not one
    e.received(frame(9));
    expect(e.counts()).toEqual({ frames: 10, returned: 3 });
  });

  it('nothing back: 0 returned of what was sent', () => {
    const e = createEchoCheck();
    for (let i = 0; i < 5; i++) e.sent(frame(i));
    expect(e.counts()).toEqual({ frames: 5, returned: 0 });
  });
});

async function bound(): Promise<Socket> {
  const s = createSocket('udp4');
  await new Promise<void>((r) => s.bind(0, '127.0.0.1', () => r()));
  return s;
}

/** A far end on loopback that sends back every packet it gets (as sipp -rtp_echo does), or nothing. */
async function farEnd(echo: boolean) {
  const s = await bound();
  let got = 0;
  s.on('message', (m, from) => {
    got++;
    if (echo) s.send(m, from.port, from.address);
  });
  return { socket: s, port: s.address().port, got: () => got };
}

describe('RTP stream with echoCheck', () => {
  const signal = (frames: number) => {
    const a = new Uint8Array(frames * 160);
    for (let i = 0; i < a.length; i++) a[i] = (i * 7 + (i >> 5)) & 0xff;
    return a;
  };

  it('an echoing far end: every played frame comes back; silence is not counted', async () => {
    const peer = await farEnd(true);
    const socket = await bound();
    const stream = startRtpStream({ socket, remote: { address: '127.0.0.1', port: peer.port }, codec: 'PCMU', payloadType: 0, telephoneEventPts: [], onDigit: () => undefined, pacer: createPacer({}), echoCheck: true });
    expect(await stream.play(signal(15), 'PCMU')).toBe('played');
    await expect.poll(() => stream.report().echo?.returned).toBe(15);
    const r = stream.report();
    stream.stop();
    peer.socket.close();
    expect(r.echo).toEqual({ frames: 15, returned: 15 });
    expect(r.framesPlayed).toBe(15);
    expect(r.packetsSent).toBeGreaterThanOrEqual(15);
    expect(r.packetsReceived).toBeGreaterThanOrEqual(15);
  });

  it('a far end that sends its own audio: packets arrive, none of ours come back', async () => {
    const peer = await farEnd(false);
    const socket = await bound();
    const stream = startRtpStream({ socket, remote: { address: '127.0.0.1', port: peer.port }, codec: 'PCMU', payloadType: 0, telephoneEventPts: [], onDigit: () => undefined, pacer: createPacer({}), echoCheck: true });
    // The far end's own stream (e.g. a recorded prompt): RTP, but not our payloads.
    for (let i = 0; i < 5; i++) peer.socket.send(encodeRtp({ payloadType: 0, marker: false, sequence: i, timestamp: i * 160, ssrc: 7 }, frame(i + 1)), socket.address().port, '127.0.0.1');
    expect(await stream.play(signal(10), 'PCMU')).toBe('played');
    await expect.poll(() => stream.report().packetsReceived).toBe(5);
    await expect.poll(() => peer.got()).toBeGreaterThanOrEqual(10);
    const r = stream.report();
    stream.stop();
    peer.socket.close();
    expect(r.echo).toEqual({ frames: 10, returned: 0 });
  });

  it('without echoCheck no payload is noted, but the played frames are counted', async () => {
    const peer = await farEnd(true);
    const socket = await bound();
    const stream = startRtpStream({ socket, remote: { address: '127.0.0.1', port: peer.port }, codec: 'PCMA', payloadType: 8, telephoneEventPts: [], onDigit: () => undefined, pacer: createPacer({}) });
    await stream.play(signal(3), 'PCMA');
    const r = stream.report();
    stream.stop();
    peer.socket.close();
    expect(r.echo).toBeNull();
    expect(r.framesPlayed).toBe(3); // what `expect = "answer"` judges by
    expect(r.packetsSent).toBeGreaterThanOrEqual(3);
  });
});
