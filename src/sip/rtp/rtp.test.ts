import { createSocket } from 'node:dgram';
import { describe, expect, it } from 'vitest';
import { createDtmfDetector, infoDigit } from './dtmf';
import { decodeRtp, encodeRtp } from './packet';
import { createPacer } from './pacer';
import { answer, offer, parseRemote } from './sdp';
import { startRtpStream } from './stream';

const local = { address: '127.0.0.1', port: 10000, sessionId: 1, version: 1 };

describe('SDP (RFC 4566 / 3264)', () => {
  it('offers PCMU, PCMA and telephone-event/8000', () => {
    const sdp = offer(local);
    expect(sdp).toMatch(/^m=audio 10000 RTP\/AVP 0 8 101$/m);
    expect(sdp).toMatch(/^a=rtpmap:101 telephone-event\/8000$/m);
    expect(sdp).toMatch(/^c=IN IP4 127\.0\.0\.1$/m);
  });
  it('sends in the first law the answer lists, at its media address', () => {
    const r = parseRemote('v=0\r\nc=IN IP4 10.0.0.9\r\nt=0 0\r\nm=audio 4000 RTP/AVP 8 0 96\r\na=rtpmap:96 telephone-event/8000\r\n');
    expect(r).toEqual({ address: '10.0.0.9', port: 4000, codec: 'PCMA', telephoneEventPt: 96, direction: 'sendrecv', origin: '' });
  });
  it('refuses an answer whose audio stream is rejected (port 0, RFC 3264 §6)', () => {
    expect(parseRemote('v=0\r\nc=IN IP4 1.2.3.4\r\nm=audio 0 RTP/AVP 0\r\n')).toMatchObject({ code: 'SDP_INVALID' });
  });
  it('refuses an answer without G.711', () => {
    expect(parseRemote('v=0\r\nc=IN IP4 1.2.3.4\r\nm=audio 4000 RTP/AVP 18\r\n')).toMatchObject({ code: 'SDP_NO_COMMON_CODEC' });
  });
  it('answers a hold offer (sendonly) with recvonly in the codec in use', () => {
    const hold = parseRemote('v=0\r\nc=IN IP4 1.2.3.4\r\nm=audio 4000 RTP/AVP 0 101\r\na=rtpmap:101 telephone-event/8000\r\na=sendonly\r\n');
    if ('code' in hold) throw new Error(hold.reason);
    const sdp = answer({ ...local, version: 2 }, hold);
    expect(sdp).toMatch(/^m=audio 10000 RTP\/AVP 0 101$/m);
    expect(sdp).toMatch(/^a=recvonly$/m);
    expect(sdp).toMatch(/^o=voice-alert 1 2 /m);
  });
});

describe('RTP (RFC 3550) and keypad events (RFC 4733)', () => {
  it('round-trips the fixed header', () => {
    const b = encodeRtp({ payloadType: 8, marker: true, sequence: 65535, timestamp: 0xfffffff0, ssrc: 0xdeadbeef }, new Uint8Array([1, 2, 3]));
    const p = decodeRtp(b)!;
    expect(p).toMatchObject({ payloadType: 8, marker: true, sequence: 65535, timestamp: 0xfffffff0, ssrc: 0xdeadbeef });
    expect([...p.payload]).toEqual([1, 2, 3]);
  });
  it('reports one digit per key press (same timestamp, repeated end packets)', () => {
    const d = createDtmfDetector();
    const ev = (e: number, end: boolean) => new Uint8Array([e, end ? 0x8a : 0x0a, 0, 160]);
    expect([d.push(100, ev(1, false)), d.push(100, ev(1, false)), d.push(100, ev(1, true)), d.push(100, ev(1, true)), d.push(900, ev(11, false))]).toEqual([
      '1',
      null,
      null,
      null,
      '#',
    ]);
  });
  it('reads SIP INFO dtmf-relay bodies', () => {
    expect(infoDigit('application/dtmf-relay', 'Signal=2\r\nDuration=160\r\n')).toBe('2');
    expect(infoDigit('application/dtmf', '1')).toBe('1');
    expect(infoDigit('text/plain', 'Signal=2')).toBeNull();
  });
});

describe('RTP stream pacing', () => {
  it('sends nothing on hold and resumes with the marker, consecutive sequence and a timestamp that kept running', async () => {
    const rx = createSocket('udp4');
    const tx = createSocket('udp4');
    await new Promise<void>((r) => rx.bind(0, '127.0.0.1', () => r()));
    await new Promise<void>((r) => tx.bind(0, '127.0.0.1', () => r()));
    const got: NonNullable<ReturnType<typeof decodeRtp>>[] = [];
    rx.on('message', (m) => got.push(decodeRtp(m)!));
    const stream = startRtpStream({ socket: tx, remote: { address: '127.0.0.1', port: rx.address().port }, codec: 'PCMA', telephoneEventPts: [], onDigit: () => undefined, pacer: createPacer() });
    await new Promise((r) => setTimeout(r, 100));
    stream.hold(true);
    await new Promise((r) => setTimeout(r, 30));
    const before = got.length;
    await new Promise((r) => setTimeout(r, 200));
    expect(got.length).toBe(before);
    stream.hold(false);
    await new Promise((r) => setTimeout(r, 100));
    stream.stop();
    rx.close();
    const resumed = got[before]!;
    const last = got[before - 1]!;
    expect(resumed.marker).toBe(true);
    expect(resumed.sequence).toBe((last.sequence + 1) & 0xffff);
    expect((resumed.timestamp - last.timestamp) >>> 0).toBeGreaterThanOrEqual(160 * 10); // ≥ 200 ms of clock
  });

  it('sends 20 ms packets with consecutive sequence numbers and timestamps, marker on the first, silence around the audio', async () => {
    const rx = createSocket('udp4');
    const tx = createSocket('udp4');
    await new Promise<void>((r) => rx.bind(0, '127.0.0.1', () => r()));
    await new Promise<void>((r) => tx.bind(0, '127.0.0.1', () => r()));
    const got: ReturnType<typeof decodeRtp>[] = [];
    const at: number[] = [];
    rx.on('message', (m) => {
      got.push(decodeRtp(m));
      at.push(performance.now());
    });
    const stream = startRtpStream({
      socket: tx,
      remote: { address: '127.0.0.1', port: rx.address().port },
      codec: 'PCMU',
      telephoneEventPts: [],
      onDigit: () => undefined,
      pacer: createPacer(),
    });
    await new Promise((r) => setTimeout(r, 100));
    const audio = new Uint8Array(160 * 10).fill(0x42);
    expect(await stream.play(audio)).toBe('played');
    await new Promise((r) => setTimeout(r, 100));
    stream.stop();
    rx.close();
    const packets = got.filter((p) => p !== null)!;
    expect(packets[0]!.marker).toBe(true);
    expect(packets.slice(1).every((p) => !p!.marker)).toBe(true);
    for (let i = 1; i < packets.length; i++) {
      expect(packets[i]!.sequence).toBe((packets[i - 1]!.sequence + 1) & 0xffff);
      expect(packets[i]!.timestamp).toBe((packets[i - 1]!.timestamp + 160) >>> 0);
    }
    const kinds = packets.map((p) => (p!.payload.every((b) => b === 0xff) ? 's' : p!.payload.every((b) => b === 0x42) ? 'a' : '?')).join('');
    expect(kinds).toMatch(/^s+a{10}s+$/);
    // Against the schedule, not chained: n packets span about (n-1)·20 ms.
    const span = at.at(-1)! - at[0]!;
    expect(Math.abs(span - (packets.length - 1) * 20)).toBeLessThan(25);
  });

  it('keeps ticking for every other stream when one sender throws', async () => {
    const errors: unknown[] = [];
    const pacer = createPacer({ onError: (e) => errors.push(e) });
    let good = 0;
    const removeBad = pacer.add(() => {
      throw new Error('socket closed under us');
    });
    const removeGood = pacer.add(() => good++);
    await new Promise((r) => setTimeout(r, 130));
    removeBad();
    removeGood();
    expect(good).toBeGreaterThanOrEqual(4);
    expect(errors).toHaveLength(1); // removed after its first throw: no error at every tick
  });

  it('with blockLastMs, ticks land on the 20 ms grid, never before it', async () => {
    const pacer = createPacer({ blockLastMs: 2 });
    const first = pacer.nextTick();
    const lateBy: number[] = [];
    const remove = pacer.add((now) => lateBy.push(now - (first + lateBy.length * 20)));
    await new Promise((r) => setTimeout(r, 150));
    remove();
    expect(lateBy.length).toBeGreaterThanOrEqual(5);
    for (const late of lateBy) expect(late).toBeGreaterThanOrEqual(0);
  });

  it('a stream that cannot send fails its plays once and stops, instead of failing at every tick', async () => {
    const tx = createSocket('udp4');
    await new Promise<void>((r) => tx.bind(0, '127.0.0.1', () => r()));
    const failures: unknown[] = [];
    const stream = startRtpStream({
      socket: tx,
      remote: { address: '127.0.0.1', port: 0 }, // sending there throws at once
      codec: 'PCMU',
      telephoneEventPts: [],
      onDigit: () => undefined,
      onFailed: (e) => failures.push(e),
      pacer: createPacer(),
    });
    expect(await stream.play(new Uint8Array(160 * 50))).toBe('failed');
    await new Promise((r) => setTimeout(r, 100));
    expect(failures).toHaveLength(1);
    expect(await stream.play(new Uint8Array(160))).toBe('failed');
    stream.stop();
  });
});
