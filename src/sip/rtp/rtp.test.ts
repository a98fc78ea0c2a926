import { createSocket } from 'node:dgram';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDtmfDetector, infoDigit } from './dtmf';
import { decodeRtp, encodeRtp } from './packet';
import { createPacer, type Pacer } from './pacer';
import { answer, offer, parseRemote } from './sdp';
import { startRtpStream } from './stream';
import { AMD_DEFAULTS, type AmdUpdate } from '../../amd';

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
    expect(r).toEqual({ address: '10.0.0.9', port: 4000, codec: 'PCMA', payloadType: 8, telephoneEventPt: 96, direction: 'sendrecv' });
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

/**
 * A pacer the test drives by hand (the Pacer interface the stream takes): ticks happen
 * exactly when and as late as the test says, so the stream's schedule is checked to the
 * packet, not against a loaded machine's timers.
 */
function manualPacer() {
  const first = 1000;
  let now = first - 20;
  const senders = new Set<(now: number) => void>();
  const pacer: Pacer = {
    nextTick: () => first,
    add(send) {
      senders.add(send);
      return () => senders.delete(send);
    },
  };
  return {
    pacer,
    senders: () => senders.size,
    /** Moves the clock `ms` on and ticks once, as a (possibly late) timer would. */
    tick(ms = 20) {
      now += ms;
      for (const s of [...senders]) s(now);
    },
  };
}

async function udpPair() {
  const rx = createSocket('udp4');
  const tx = createSocket('udp4');
  await new Promise<void>((r) => rx.bind(0, '127.0.0.1', () => r()));
  await new Promise<void>((r) => tx.bind(0, '127.0.0.1', () => r()));
  const got: NonNullable<ReturnType<typeof decodeRtp>>[] = [];
  rx.on('message', (m) => got.push(decodeRtp(m)!));
  return { rx, tx, got, remote: { address: '127.0.0.1', port: rx.address().port } };
}

describe('voicemail detection on the stream (docs/telephony.md "Voicemail detection")', () => {
  it('a far end that sends nothing is heard as silence: unknown, initial_silence, on the stream clock', async () => {
    const { rx, tx, remote } = await udpPair();
    const clock = manualPacer();
    const found: AmdUpdate[] = [];
    const stream = startRtpStream({ socket: tx, remote, codec: 'PCMU', payloadType: 0, telephoneEventPts: [], onDigit: () => undefined, pacer: clock.pacer, amd: AMD_DEFAULTS, onAmd: (u) => found.push(u) });
    for (let i = 0; i < 125; i++) clock.tick(); // 2.5 s, less the lag allowed to packets
    expect(found).toEqual([]);
    for (let i = 0; i < 10; i++) clock.tick();
    expect(found).toEqual([{ kind: 'decided', verdict: { answeredBy: 'unknown', reason: 'initial_silence', atMs: 2500 } }]);
    stream.stop();
    rx.close();
  });

  it('a key during the analysis: human, keypress; none after the verdict', async () => {
    const { rx, tx, remote } = await udpPair();
    const clock = manualPacer();
    const found: AmdUpdate[] = [];
    const stream = startRtpStream({ socket: tx, remote, codec: 'PCMA', payloadType: 8, telephoneEventPts: [], onDigit: () => undefined, pacer: clock.pacer, amd: AMD_DEFAULTS, onAmd: (u) => found.push(u) });
    for (let i = 0; i < 20; i++) clock.tick();
    stream.analysisKey();
    stream.analysisKey();
    expect(found).toMatchObject([{ kind: 'decided', verdict: { answeredBy: 'human', reason: 'keypress' } }]);
    stream.stop();
    rx.close();
  });
});

describe('RTP stream pacing', () => {
  it('sends nothing on hold and resumes with the marker, consecutive sequence and a timestamp that kept running', async () => {
    const { rx, tx, got, remote } = await udpPair();
    const clock = manualPacer();
    const stream = startRtpStream({ socket: tx, remote, codec: 'PCMA', payloadType: 8, telephoneEventPts: [], onDigit: () => undefined, pacer: clock.pacer });
    for (let i = 0; i < 5; i++) clock.tick();
    await expect.poll(() => got.length).toBe(5);
    stream.hold(true);
    for (let i = 0; i < 10; i++) clock.tick(); // 200 ms on hold
    stream.hold(false);
    for (let i = 0; i < 3; i++) clock.tick();
    await expect.poll(() => got.length).toBe(8); // nothing was sent on hold
    stream.stop();
    rx.close();
    const [last, resumed] = [got[4]!, got[5]!];
    expect(resumed.marker).toBe(true);
    expect(resumed.sequence).toBe((last.sequence + 1) & 0xffff);
    expect((resumed.timestamp - last.timestamp) >>> 0).toBe(160 * 11); // the 200 ms held ran on the RTP clock
  });

  it('sends 20 ms packets with consecutive sequence numbers and timestamps, marker on the first, silence around the audio', async () => {
    const { rx, tx, got, remote } = await udpPair();
    const clock = manualPacer();
    const stream = startRtpStream({ socket: tx, remote, codec: 'PCMU', payloadType: 0, telephoneEventPts: [], onDigit: () => undefined, pacer: clock.pacer });
    for (let i = 0; i < 5; i++) clock.tick();
    const played = stream.play(new Uint8Array(160 * 10).fill(0x42), 'PCMU');
    for (let i = 0; i < 10; i++) clock.tick();
    expect(await played).toBe('played');
    for (let i = 0; i < 5; i++) clock.tick();
    await expect.poll(() => got.length).toBe(20);
    stream.stop();
    rx.close();
    expect(got[0]!.marker).toBe(true);
    expect(got.slice(1).every((p) => !p.marker)).toBe(true);
    for (let i = 1; i < got.length; i++) {
      expect(got[i]!.sequence).toBe((got[i - 1]!.sequence + 1) & 0xffff);
      expect(got[i]!.timestamp).toBe((got[i - 1]!.timestamp + 160) >>> 0);
    }
    const kinds = got.map((p) => (p.payload.every((b) => b === 0xff) ? 's' : p.payload.every((b) => b === 0x42) ? 'a' : '?')).join('');
    expect(kinds).toBe('sssss' + 'a'.repeat(10) + 'sssss');
  });

  it('applies a new offer/answer mid-message: new address and codec from the next packet, sequence and timestamp running on, queued audio converted', async () => {
    const { rx, tx, got, remote } = await udpPair();
    const moved = await udpPair(); // the phone's own address after a direct-media re-INVITE
    const clock = manualPacer();
    const stream = startRtpStream({ socket: tx, remote, codec: 'PCMU', payloadType: 0, telephoneEventPts: [], onDigit: () => undefined, pacer: clock.pacer });
    const played = stream.play(new Uint8Array(160 * 6).fill(0x80), 'PCMU'); // µ-law 0x80: the loudest positive sample
    for (let i = 0; i < 3; i++) clock.tick();
    await expect.poll(() => got.length).toBe(3);
    stream.update({ remote: moved.remote, codec: 'PCMA', payloadType: 8, telephoneEventPts: [96] });
    expect(stream.codec).toBe('PCMA');
    for (let i = 0; i < 4; i++) clock.tick();
    expect(await played).toBe('played');
    await expect.poll(() => moved.got.length).toBe(4);
    stream.stop();
    rx.close();
    moved.rx.close();
    expect(got).toHaveLength(3); // nothing more to the old address
    expect(got.every((p) => p.payloadType === 0)).toBe(true);
    expect(moved.got.map((p) => p.payloadType)).toEqual([8, 8, 8, 8]);
    const all = [...got, ...moved.got];
    for (let i = 1; i < all.length; i++) {
      expect(all[i]!.sequence).toBe((all[i - 1]!.sequence + 1) & 0xffff);
      expect(all[i]!.timestamp).toBe((all[i - 1]!.timestamp + 160) >>> 0);
      expect(all[i]!.ssrc).toBe(all[0]!.ssrc);
    }
    // The rest of the message left in A-law (0xAA is A-law's loudest positive), then A-law silence.
    expect(moved.got.slice(0, 3).every((p) => p.payload.every((b) => b === 0xaa))).toBe(true);
    expect(moved.got[3]!.payload.every((b) => b === 0xd5)).toBe(true);
  });

  it('follows its schedule, not the ticks: a late tick sends every packet due, so lateness never adds up to drift', async () => {
    const { rx, tx, got, remote } = await udpPair();
    const clock = manualPacer();
    const stream = startRtpStream({ socket: tx, remote, codec: 'PCMU', payloadType: 0, telephoneEventPts: [], onDigit: () => undefined, pacer: clock.pacer });
    clock.tick(); // packet 0, on time
    clock.tick(65); // 65 ms late: packets 1, 2 and 3 are due
    await expect.poll(() => got.length).toBe(4);
    clock.tick(15); // back on the grid (start + 80 ms): packet 4 only
    clock.tick(19); // 1 ms early is within the slack: packet 5
    clock.tick(17); // 4 ms early, beyond the slack: nothing yet
    await expect.poll(() => got.length).toBe(6);
    clock.tick(4); // its instant: packet 6
    await expect.poll(() => got.length).toBe(7);
    stream.stop();
    rx.close();
    expect(got.map((p) => (p.timestamp - got[0]!.timestamp) >>> 0)).toEqual([0, 1, 2, 3, 4, 5, 6].map((n) => n * 160));
  });

  describe('the pacer', () => {
    // Its timers and clock are ours (setTimeout, performance.now): a fake clock runs them exactly.
    beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] }));
    afterEach(() => vi.useRealTimers());

    it('ticks on a 20 ms grid from its origin, and stops its timer when nobody sends', () => {
      const pacer = createPacer();
      const origin = performance.now();
      const at: number[] = [];
      const remove = pacer.add((now) => at.push(now - origin));
      vi.advanceTimersByTime(100);
      expect(at).toEqual([20, 40, 60, 80, 100]);
      remove();
      vi.advanceTimersByTime(40); // one more tick finds no sender and schedules no other
      expect(vi.getTimerCount()).toBe(0);
    });

    it('counts a tick that fires more than half a period late, and only those', () => {
      let lag = 0;
      const lates: number[] = [];
      const pacer = createPacer({ now: () => performance.now() + lag, onLate: (ms) => lates.push(ms) });
      const remove = pacer.add(() => undefined);
      vi.advanceTimersByTime(20);
      lag = 9; // the next tick runs 9 ms after its instant: bunched, but within half a period
      vi.advanceTimersByTime(20);
      lag = 24; // 15 ms more: this one is late
      vi.advanceTimersByTime(20);
      vi.advanceTimersByTime(60); // back on the grid
      remove();
      expect(lates).toEqual([15]);
    });

    it('keeps ticking for every other stream when one sender throws', () => {
      const errors: unknown[] = [];
      const pacer = createPacer({ onError: (e) => errors.push(e) });
      let good = 0;
      const removeBad = pacer.add(() => {
        throw new Error('socket closed under us');
      });
      const removeGood = pacer.add(() => good++);
      vi.advanceTimersByTime(130);
      removeBad();
      removeGood();
      expect(good).toBe(6);
      expect(errors).toHaveLength(1); // removed after its first throw: no error at every tick
    });
  });

  it('with blockLastMs, ticks land on the 20 ms grid, never before it', async () => {
    // Real time on purpose: this is about how close a real timer plus Atomics.wait lands.
    const pacer = createPacer({ blockLastMs: 2 });
    const first = pacer.nextTick();
    const lateBy: number[] = [];
    await new Promise<void>((fifth) => {
      const remove = pacer.add((now) => {
        lateBy.push(now - (first + lateBy.length * 20));
        if (lateBy.length === 5) {
          remove();
          fifth();
        }
      });
    });
    expect(lateBy).toHaveLength(5);
    for (const late of lateBy) expect(late).toBeGreaterThanOrEqual(0);
  });

  it('a stream that cannot send fails its plays once and stops, instead of failing at every tick', async () => {
    const tx = createSocket('udp4');
    await new Promise<void>((r) => tx.bind(0, '127.0.0.1', () => r()));
    const failures: unknown[] = [];
    const clock = manualPacer();
    const stream = startRtpStream({
      socket: tx,
      remote: { address: '127.0.0.1', port: 0 }, // sending there throws at once
      codec: 'PCMU',
      payloadType: 0,
      telephoneEventPts: [],
      onDigit: () => undefined,
      onFailed: (e) => failures.push(e),
      pacer: clock.pacer,
    });
    const played = stream.play(new Uint8Array(160 * 50), 'PCMU');
    clock.tick();
    expect(await played).toBe('failed');
    expect(clock.senders()).toBe(0); // it left the pacer
    for (let i = 0; i < 5; i++) clock.tick();
    expect(failures).toHaveLength(1);
    expect(await stream.play(new Uint8Array(160), 'PCMU')).toBe('failed');
    stream.stop();
  });
});
