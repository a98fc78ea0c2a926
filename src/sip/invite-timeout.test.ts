import { createSocket, type Socket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../test/helpers/ports';
import { dialTest, recorder, stoppedAfterEach, testPhone } from '../../test/helpers/test-phone';

/**
 * sip.invite_timeout_s (docs/telephony.md "SIP trunks: several, in order"): an INVITE that hears nothing
 * at all, not even a 100 Trying, by then ends its attempt as silent (a trunk failure:
 * trunks/trunk-route.ts), without waiting for Timer B. The peer is a bare UDP socket that
 * answers only when a test tells it to: a PBX that drops packets.
 */
const { phones } = stoppedAfterEach();
const sockets: Socket[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.close();
});

interface Heard {
  text: string;
  at: number;
  from: { address: string; port: number };
}

async function quietPeer() {
  const socket = createSocket('udp4');
  sockets.push(socket);
  const heard: Heard[] = [];
  /** A response to a request heard: its Via, From, To, Call-ID and CSeq copied (RFC 3261 §8.2.6.2). */
  const respond = (to: Heard, status: string) => {
    const copy = to.text.split('\r\n').filter((l) => /^(via|from|to|call-id|cseq):/i.test(l));
    const head = [`SIP/2.0 ${status}`, ...copy.map((l) => (/^to:/i.test(l) ? `${l};tag=quiet1` : l))];
    // A 200 to the INVITE answers its offer (PCMU), from an address the dialog can reach.
    const port = (socket.address() as { port: number }).port;
    const sdp = ['v=0', 'o=quiet 1 1 IN IP4 127.0.0.1', 's=-', 'c=IN IP4 127.0.0.1', 't=0 0', 'm=audio 9 RTP/AVP 0', 'a=rtpmap:0 PCMU/8000', ''].join('\r\n');
    const body = status.startsWith('200') && /^CSeq:\s*\d+ INVITE/im.test(to.text) ? sdp : '';
    const extra = body ? [`Contact: <sip:quiet@127.0.0.1:${port}>`, 'Content-Type: application/sdp'] : [];
    socket.send([...head, ...extra, `Content-Length: ${Buffer.byteLength(body)}`, '', body].join('\r\n'), to.from.port, to.from.address);
  };
  const invite = () => heard.find((h) => h.text.startsWith('INVITE '))!;
  socket.on('message', (m, from) => {
    const h = { text: m.toString(), at: Date.now(), from };
    heard.push(h);
    // Once it has answered at all, it answers a CANCEL as a PBX does (RFC 3261 §9.2).
    if (h.text.startsWith('CANCEL ') && spoke) {
      respond(h, '200 OK');
      respond(invite(), '487 Request Terminated');
    }
  });
  let spoke = false;
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', () => r()));
  /** A response to the first INVITE heard. */
  const answer = (status: string) => {
    spoke = true;
    respond(invite(), status);
  };
  return { port: (socket.address() as { port: number }).port, heard, answer, methods: () => heard.map((h) => h.text.split(' ')[0]) };
}

describe('sip.invite_timeout_s', () => {
  it('a peer that says nothing: the attempt ends silent at invite_timeout_s, long before Timer B', async () => {
    const peer = await quietPeer();
    // T1 = 500 ms: Timer B would give up after 32 s; the ring timeout is 20 s.
    const t = await testPhone(peer.port, { t1_ms: 500, t2_ms: 4000, invite_timeout_s: 1 });
    phones.push(t.phone);
    const started = Date.now();
    const outcome = await dialTest(t.phone, recorder().progress, { ringTimeoutMs: 20_000 });
    const took = Date.now() - started;
    expect(outcome).toEqual({
      code: 'NO_ANSWER',
      status: 487,
      reason: 'no response to the INVITE within sip.invite_timeout_s (1 s)',
      silent: true,
    });
    expect(took).toBeGreaterThanOrEqual(1000);
    expect(took).toBeLessThan(2500);
    expect(peer.methods()[0]).toBe('INVITE');
    // No CANCEL before any provisional answer (RFC 3261 §9.1).
    expect(t.sent('CANCEL')).toEqual([]);
  });

  it('a late 180 after the attempt gave up gets our CANCEL', async () => {
    const peer = await quietPeer();
    const t = await testPhone(peer.port, { t1_ms: 500, t2_ms: 4000, invite_timeout_s: 1 });
    phones.push(t.phone);
    expect(await dialTest(t.phone, recorder().progress, { ringTimeoutMs: 20_000 })).toMatchObject({ code: 'NO_ANSWER', silent: true });
    peer.answer('180 Ringing');
    await expect.poll(() => peer.methods().includes('CANCEL'), { timeout: 3000 }).toBe(true);
  });

  it('a late 200 after the attempt gave up gets our ACK and BYE', async () => {
    const peer = await quietPeer();
    const t = await testPhone(peer.port, { t1_ms: 500, t2_ms: 4000, invite_timeout_s: 1 });
    phones.push(t.phone);
    expect(await dialTest(t.phone, recorder().progress, { ringTimeoutMs: 20_000 })).toMatchObject({ code: 'NO_ANSWER', silent: true });
    peer.answer('200 OK');
    await expect.poll(() => peer.methods().filter((m) => m === 'ACK' || m === 'BYE'), { timeout: 3000 }).toEqual(['ACK', 'BYE']);
  });

  it('each attempt that gave up lets its RTP port go at once: more of them than the range holds ports', async () => {
    const peer = await quietPeer();
    const rtp = await freePort();
    // Two even ports; Timer B (32 s) would hold each for the whole test.
    const t = await testPhone(peer.port, { t1_ms: 500, t2_ms: 4000, invite_timeout_s: 1, rtp_ports: `${rtp}-${rtp + 3}` });
    phones.push(t.phone);
    for (let i = 0; i < 4; i++) {
      expect(await dialTest(t.phone, recorder().progress, { ringTimeoutMs: 20_000 })).toMatchObject({ code: 'NO_ANSWER', silent: true });
    }
    expect(peer.methods().filter((m) => m === 'INVITE').length).toBeGreaterThanOrEqual(4);
  });

  it('a 100 Trying is an answer: the call then rings out its ring timeout, not silent', async () => {
    const peer = await quietPeer();
    const t = await testPhone(peer.port, { t1_ms: 500, t2_ms: 4000, invite_timeout_s: 1 });
    phones.push(t.phone);
    const dialled = dialTest(t.phone, recorder().progress, { ringTimeoutMs: 2500 });
    await expect.poll(() => peer.heard.length, { timeout: 1000 }).toBeGreaterThan(0);
    peer.answer('100 Trying');
    const started = Date.now();
    const outcome = await dialled;
    expect(outcome).toMatchObject({ code: 'NO_ANSWER', reason: 'no answer within ring timeout' });
    expect(outcome).not.toHaveProperty('silent');
    expect(Date.now() - started).toBeGreaterThan(1500);
  });

  it('0 (the default) leaves the bound to Timer B and the ring timeout', async () => {
    const peer = await quietPeer();
    const t = await testPhone(peer.port, { t1_ms: 50, t2_ms: 400 });
    phones.push(t.phone);
    const started = Date.now();
    // Timer B: 64 × 50 ms = 3.2 s, our own 408.
    expect(await dialTest(t.phone, recorder().progress, { ringTimeoutMs: 20_000 })).toMatchObject({ code: 'SIP_FINAL', status: 408, local: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
  });
});
