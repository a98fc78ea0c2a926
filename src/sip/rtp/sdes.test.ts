import { createSocket } from 'node:dgram';
import { describe, expect, it } from 'vitest';
import type { RtpEngine, RtpStreamHandle } from './engine';
import { decodeRtp, encodeRtp } from './packet';
import type { Pacer } from './pacer';
import { answer, offer, parseCrypto, parseRemote } from './sdp';
import { createSrtpReceiver, createSrtpSender, SRTP_TAG_BYTES } from './srtp';
import { startRtpStream, type StreamMedia } from './stream';
import { MediaHandler, SRTP_REQUIRED_REASON } from '../ua/media-handler';

const KEY = new Uint8Array(30).map((_, i) => i + 1);
const KEY_B64 = Buffer.from(KEY).toString('base64');
const local = { address: '127.0.0.1', port: 10000, sessionId: 1, version: 1 };
const savp = (extra: string[]) => ['v=0', 'o=- 1 1 IN IP4 10.0.0.9', 's=-', 'c=IN IP4 10.0.0.9', 't=0 0', 'm=audio 4000 RTP/SAVP 0 101', 'a=rtpmap:101 telephone-event/8000', ...extra, ''].join('\r\n');

describe('SDES in SDP (RFC 4568)', () => {
  it('offers RTP/SAVP with one AES_CM_128_HMAC_SHA1_80 inline key when the trunk keys SRTP', () => {
    const sdp = offer({ ...local, srtpKey: KEY });
    expect(sdp).toMatch(/^m=audio 10000 RTP\/SAVP 0 8 101$/m);
    expect(sdp).toContain(`a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:${KEY_B64}\r\n`);
    expect(offer(local)).not.toMatch(/SAVP|a=crypto/);
  });

  it("reads the answer's crypto line: tag and 30-byte key, the first line with our suite", () => {
    const r = parseRemote(savp([`a=crypto:2 AES_CM_128_HMAC_SHA1_32 inline:${Buffer.alloc(30, 9).toString('base64')}`, `a=crypto:3 AES_CM_128_HMAC_SHA1_80 inline:${KEY_B64}|2^31`]));
    if ('code' in r) throw new Error(r.reason);
    expect(r.srtp?.tag).toBe(3);
    expect(Buffer.from(r.srtp!.key).equals(Buffer.from(KEY))).toBe(true);
  });

  it('refuses RTP/SAVP without a usable crypto line (other suite, MKI, session parameters, short key)', () => {
    for (const line of [
      `a=crypto:1 AES_256_CM_HMAC_SHA1_80 inline:${KEY_B64}`,
      `a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:${KEY_B64}|2^20|1:4`,
      `a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:${KEY_B64} UNENCRYPTED_SRTP`,
      `a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:${Buffer.alloc(16).toString('base64')}`,
    ]) {
      expect(parseCrypto(line)).toBeNull();
      expect(parseRemote(savp([line]))).toMatchObject({ code: 'SDP_INVALID' });
    }
  });

  it('a plain RTP/AVP answer has no srtp', () => {
    const r = parseRemote('v=0\r\nc=IN IP4 10.0.0.9\r\nt=0 0\r\nm=audio 4000 RTP/AVP 0\r\n');
    expect(r).not.toHaveProperty('code');
    expect((r as { srtp?: unknown }).srtp).toBeUndefined();
  });

  it("answers an SRTP offer with our key under the offer's tag", () => {
    const r = parseRemote(savp([`a=crypto:7 AES_CM_128_HMAC_SHA1_80 inline:${Buffer.alloc(30, 5).toString('base64')}`]));
    if ('code' in r) throw new Error(r.reason);
    const sdp = answer({ ...local, srtpKey: KEY }, r);
    expect(sdp).toMatch(/^m=audio 10000 RTP\/SAVP 0 101$/m);
    expect(sdp).toContain(`a=crypto:7 AES_CM_128_HMAC_SHA1_80 inline:${KEY_B64}`);
  });
});

function fakeEngine() {
  const started: StreamMedia[] = [];
  const engine: RtpEngine = {
    take: async () => ({
      port: 10000,
      start: (s) => {
        started.push(s);
        return { codec: s.codec, play: async () => 'played', interrupt: () => undefined, hold: () => undefined, update: () => undefined, analysisKey: () => undefined } satisfies RtpStreamHandle;
      },
      release: async () => undefined,
    }),
    close: async () => undefined,
    counts: () => ({ packetsSent: 0, lateTicks: 0 }),
  };
  return { engine, started };
}

describe('the media handler on a trunk with srtp = "sdes"', () => {
  it('offers a fresh key per call and keys the stream with ours and theirs', async () => {
    const f = fakeEngine();
    const h = new MediaHandler(f.engine, '127.0.0.1', 'sdes');
    const ours = (await h.getDescription()).body;
    const mine = /inline:(\S+)/.exec(ours)![1]!;
    expect(/inline:(\S+)/.exec((await new MediaHandler(f.engine, '127.0.0.1', 'sdes').getDescription()).body)![1]).not.toBe(mine);
    await h.setDescription(savp([`a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:${KEY_B64}`]));
    h.confirm();
    h.startStream({ onDigit: () => undefined });
    const srtp = f.started[0]!.srtp!;
    expect(Buffer.from(srtp.send).toString('base64')).toBe(mine);
    expect(Buffer.from(srtp.receive).equals(Buffer.from(KEY))).toBe(true);
  });

  it('refuses a plain answer with a reason of its own (the call ends, the trunk is to blame)', async () => {
    const h = new MediaHandler(fakeEngine().engine, '127.0.0.1', 'sdes');
    await h.getDescription();
    await expect(h.setDescription('v=0\r\nc=IN IP4 10.0.0.9\r\nt=0 0\r\nm=audio 4000 RTP/AVP 0\r\n')).rejects.toThrow(SRTP_REQUIRED_REASON);
    expect(h.remoteMedia()).toBeNull();
    expect(h.unusableAnswer()).toMatch(/^SRTP required: the PBX answered plain RTP/);
  });

  it('an SRTP answer with no crypto line we support is the SRTP reason too; a codec mismatch is not', async () => {
    const h = new MediaHandler(fakeEngine().engine, '127.0.0.1', 'sdes');
    await h.getDescription();
    await expect(h.setDescription(savp([`a=crypto:1 AES_256_CM_HMAC_SHA1_80 inline:${KEY_B64}`]))).rejects.toThrow();
    expect(h.unusableAnswer()).toBe('SRTP required: RTP/SAVP without an a=crypto line we support (AES_CM_128_HMAC_SHA1_80, no MKI)');
    const g729 = new MediaHandler(fakeEngine().engine, '127.0.0.1', 'sdes');
    await g729.getDescription();
    await expect(g729.setDescription(savp([`a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:${KEY_B64}`]).replace('RTP/SAVP 0 101', 'RTP/SAVP 18'))).rejects.toThrow(/SDP_NO_COMMON_CODEC/);
    expect(g729.unusableAnswer()).toBeNull();
  });

  it('a trunk without srtp offers plain RTP and refuses an SRTP answer it did not ask for', async () => {
    const h = new MediaHandler(fakeEngine().engine, '127.0.0.1');
    expect((await h.getDescription()).body).toMatch(/RTP\/AVP/);
    await expect(h.setDescription(savp([`a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:${KEY_B64}`]))).rejects.toThrow(/SAVP/);
    expect(h.unusableAnswer()).toBeNull();
  });
});

/** A pacer ticked by the test (as in rtp.test.ts). */
function manualPacer() {
  let now = 980;
  const senders = new Set<(now: number) => void>();
  const pacer: Pacer = {
    nextTick: () => 1000,
    add(send) {
      senders.add(send);
      return () => senders.delete(send);
    },
  };
  return {
    pacer,
    tick() {
      now += 20;
      for (const s of [...senders]) s(now);
    },
  };
}

describe('an SRTP stream (stream.ts with SDES keys)', () => {
  it('sends protected frames the far end opens, and reads keypad events only from packets that authenticate', async () => {
    const far = createSocket('udp4');
    const ours = createSocket('udp4');
    await new Promise<void>((r) => far.bind(0, '127.0.0.1', () => r()));
    await new Promise<void>((r) => ours.bind(0, '127.0.0.1', () => r()));
    const ourKey = new Uint8Array(30).fill(7);
    const farOpen = createSrtpReceiver(ourKey);
    const got: Buffer[] = [];
    const raw: Buffer[] = [];
    far.on('message', (m) => {
      raw.push(m);
      const opened = farOpen.unprotect(m);
      if (typeof opened !== 'string') got.push(opened);
    });
    const digits: string[] = [];
    const clock = manualPacer();
    const stream = startRtpStream({
      socket: ours,
      remote: { address: '127.0.0.1', port: far.address().port },
      codec: 'PCMU',
      payloadType: 0,
      telephoneEventPts: [101],
      srtp: { send: ourKey, receive: KEY },
      onDigit: (d) => digits.push(d),
      pacer: clock.pacer,
    });
    const audio = new Uint8Array(320).map((_, i) => i & 0x7f);
    const played = stream.play(audio, 'PCMU');
    for (let i = 0; i < 4; i++) clock.tick();
    expect(await played).toBe('played');
    await expect.poll(() => raw.length).toBe(4);
    expect(got.length).toBe(4); // every packet authenticated under our key
    expect(raw[0]!.length).toBe(12 + 160 + SRTP_TAG_BYTES);
    expect(Buffer.from(decodeRtp(got[0]!)!.payload).equals(Buffer.from(audio.subarray(0, 160)))).toBe(true);
    expect(raw[0]!.subarray(12, 172).equals(got[0]!.subarray(12))).toBe(false); // encrypted on the wire

    // The far end presses 5 (RFC 4733: event 5, end bit) under its key; a forged copy under another key is dropped.
    const farSend = createSrtpSender(KEY);
    const forged = createSrtpSender(new Uint8Array(30).fill(9));
    const event = (d: number) => encodeRtp({ payloadType: 101, marker: true, sequence: 1, timestamp: 4000, ssrc: 77 }, Uint8Array.of(d, 0x80, 0, 160));
    const to = { port: ours.address().port, address: '127.0.0.1' };
    far.send(forged.protect(event(3)), to.port, to.address);
    far.send(encodeRtp({ payloadType: 101, marker: true, sequence: 1, timestamp: 4000, ssrc: 78 }, Uint8Array.of(4, 0x80, 0, 160)), to.port, to.address); // plain RTP
    far.send(farSend.protect(event(5)), to.port, to.address);
    await expect.poll(() => digits).toEqual(['5']);
    stream.stop();
    far.close();
  });

  it('a new offer with new keys (RFC 4568 §7.1.4) rekeys both ways from the next packet; the old key is refused', async () => {
    const far = createSocket('udp4');
    const ours = createSocket('udp4');
    await new Promise<void>((r) => far.bind(0, '127.0.0.1', () => r()));
    await new Promise<void>((r) => ours.bind(0, '127.0.0.1', () => r()));
    const [mine1, mine2, theirs1, theirs2] = [1, 2, 3, 4].map((n) => new Uint8Array(30).fill(n));
    const raw: Buffer[] = [];
    far.on('message', (m) => raw.push(m));
    const digits: string[] = [];
    const clock = manualPacer();
    const media = { remote: { address: '127.0.0.1', port: far.address().port }, codec: 'PCMU' as const, payloadType: 0, telephoneEventPts: [101] };
    const stream = startRtpStream({ ...media, socket: ours, srtp: { send: mine1!, receive: theirs1! }, onDigit: (d) => digits.push(d), pacer: clock.pacer });
    clock.tick();
    await expect.poll(() => raw.length).toBe(1);
    stream.update({ ...media, srtp: { send: mine2!, receive: theirs2! } });
    clock.tick();
    await expect.poll(() => raw.length).toBe(2);
    expect(createSrtpReceiver(mine1!).unprotect(raw[0]!)).toBeInstanceOf(Buffer);
    expect(createSrtpReceiver(mine2!).unprotect(raw[1]!)).toBeInstanceOf(Buffer);
    expect(createSrtpReceiver(mine1!).unprotect(raw[1]!)).toBe('auth');
    const event = (d: number, seq: number) => encodeRtp({ payloadType: 101, marker: true, sequence: seq, timestamp: 8000 * seq, ssrc: 77 }, Uint8Array.of(d, 0x80, 0, 160));
    const to = ours.address().port;
    far.send(createSrtpSender(theirs1!).protect(event(3, 10)), to, '127.0.0.1'); // the old key: dropped
    far.send(createSrtpSender(theirs2!).protect(event(7, 11)), to, '127.0.0.1');
    await expect.poll(() => digits).toEqual(['7']);
    stream.stop();
    far.close();
  });
});
