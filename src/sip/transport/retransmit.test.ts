import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRetransmitter } from './retransmit';

const req = (method: string, branch: string, cseq = 1) =>
  `${method} sip:1@h SIP/2.0\r\nVia: SIP/2.0/UDP 127.0.0.1:5060;branch=${branch};rport\r\nFrom: <sip:a@h>;tag=f\r\nTo: <sip:1@h>\r\nCall-ID: c1\r\nCSeq: ${cseq} ${method}\r\nContent-Length: 0\r\n\r\n`;
const res = (status: number, method: string, branch: string, cseq = 1) =>
  `SIP/2.0 ${status} X\r\nVia: SIP/2.0/UDP 127.0.0.1:5060;branch=${branch};rport=5060\r\nFrom: <sip:a@h>;tag=f\r\nTo: <sip:1@h>;tag=t\r\nCall-ID: c1\r\nCSeq: ${cseq} ${method}\r\nContent-Length: 0\r\n\r\n`;

// The timers are ours (retransmit.ts): a fake clock runs them exactly, so every instant
// is asserted to the millisecond instead of bounded against a loaded machine's jitter.
beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: 0 }));
afterEach(() => vi.useRealTimers());

function harness(reliable = false) {
  const resent: { at: number; m: string }[] = [];
  const timeouts: { at: number; m: string }[] = [];
  const r = createRetransmitter({
    t1Ms: 20,
    t2Ms: 80,
    reliable,
    resend: (m) => resent.push({ at: Date.now(), m }),
    timedOut: (m) => timeouts.push({ at: Date.now(), m }),
  });
  return { r, resent, timeouts };
}

describe('RFC 3261 §17 client retransmission', () => {
  it('Timer A doubles the INVITE interval and Timer B gives a local 408 after 64*T1', () => {
    const { r, resent, timeouts } = harness();
    r.sent(req('INVITE', 'z9hG4bKa'));
    vi.advanceTimersByTime(64 * 20 + 100);
    // T1, then each interval double the one before (Timer A), until Timer B at 64·T1.
    expect(resent.map((x) => x.at)).toEqual([20, 60, 140, 300, 620, 1260]);
    expect(resent.every((x) => x.m.startsWith('INVITE '))).toBe(true);
    expect(timeouts.map((x) => x.at)).toEqual([1280]);
    expect(timeouts[0]!.m).toMatch(/^SIP\/2\.0 408 /);
    expect(timeouts[0]!.m).toMatch(/CSeq: 1 INVITE/);
    expect(r.pending()).toBe(0);
    r.close();
  });

  it('a provisional response stops INVITE retransmission and Timer B', () => {
    const { r, resent, timeouts } = harness();
    r.sent(req('INVITE', 'z9hG4bKb'));
    vi.advanceTimersByTime(30);
    expect(r.received(res(180, 'INVITE', 'z9hG4bKb'))).toBe(true);
    expect(resent).toHaveLength(1);
    vi.advanceTimersByTime(64 * 20 + 50);
    expect(resent).toHaveLength(1);
    expect(timeouts).toHaveLength(0);
    r.close();
  });

  it('non-INVITE Timer E caps at T2', () => {
    const { r, resent } = harness();
    r.sent(req('BYE', 'z9hG4bKc', 2));
    vi.advanceTimersByTime(600);
    // Intervals 20, 40, 80, then T2 (80) from there on.
    expect(resent.map((x) => x.at)).toEqual([20, 60, 140, 220, 300, 380, 460, 540]);
    expect(r.received(res(200, 'BYE', 'z9hG4bKc', 2))).toBe(true);
    vi.advanceTimersByTime(600);
    expect(resent).toHaveLength(8);
    r.close();
  });

  it('a 1xx to a non-INVITE moves Timer E to every T2 (§17.1.2.2)', () => {
    const { r, resent } = harness();
    r.sent(req('OPTIONS', 'z9hG4bKp', 3));
    vi.advanceTimersByTime(30); // one resend, at 20
    expect(r.received(res(100, 'OPTIONS', 'z9hG4bKp', 3))).toBe(true);
    vi.advanceTimersByTime(250);
    expect(resent.map((x) => x.at)).toEqual([20, 110, 190, 270]);
    r.close();
  });

  it('absorbs a retransmitted final and sends the ACK again', () => {
    const { r, resent } = harness();
    r.sent(req('INVITE', 'z9hG4bKd'));
    expect(r.received(res(200, 'INVITE', 'z9hG4bKd'))).toBe(true);
    r.sent(req('ACK', 'z9hG4bKack'));
    expect(r.received(res(200, 'INVITE', 'z9hG4bKd'))).toBe(false);
    expect(resent.at(-1)!.m).toMatch(/^ACK /);
    r.close();
  });

  it('on a reliable transport only Timer B/F run', () => {
    const { r, resent, timeouts } = harness(true);
    r.sent(req('OPTIONS', 'z9hG4bKe'));
    vi.advanceTimersByTime(64 * 20 + 80);
    expect(resent).toHaveLength(0);
    expect(timeouts.map((x) => x.at)).toEqual([1280]);
    r.close();
  });

  it('resends our 2xx to an INVITE from the far end until its ACK arrives (§13.3.1.4)', () => {
    const { r, resent } = harness();
    r.sent(res(200, 'INVITE', 'z9hG4bKreinvite', 2));
    vi.advanceTimersByTime(150);
    expect(resent.map((x) => x.at)).toEqual([20, 60, 140]);
    expect(r.received(req('ACK', 'z9hG4bKack2', 2))).toBe(true);
    vi.advanceTimersByTime(200);
    expect(resent).toHaveLength(3);
    r.close();
  });

  it('stops resending our 2xx after 64*T1 without an ACK', () => {
    const { r, resent } = harness();
    r.sent(res(200, 'INVITE', 'z9hG4bKnoack', 4));
    vi.advanceTimersByTime(64 * 20);
    const n = resent.length;
    expect(resent.at(-1)!.at).toBeLessThanOrEqual(1280);
    vi.advanceTimersByTime(1000);
    expect(resent).toHaveLength(n);
    r.close();
  });
});

describe('RFC 3261 §17.2.2 our finals to far-end non-INVITE requests (Timer J)', () => {
  it('a retransmitted BYE gets our same 200 again, never reaching sip.js, until 64*T1', () => {
    const { r, resent } = harness();
    expect(r.received(req('BYE', 'z9hG4bKbye', 5))).toBe(true);
    const ok = res(200, 'BYE', 'z9hG4bKbye', 5);
    r.sent(ok);
    vi.advanceTimersByTime(500);
    expect(r.received(req('BYE', 'z9hG4bKbye', 5))).toBe(false);
    expect(resent).toEqual([{ at: 500, m: ok }]);
    vi.advanceTimersByTime(64 * 20);
    expect(r.received(req('BYE', 'z9hG4bKbye', 5))).toBe(true); // Timer J ran out: a new request
    r.close();
  });

  it('on TCP nothing is kept: the stream does not duplicate', () => {
    const { r, resent } = harness(true);
    r.received(req('BYE', 'z9hG4bKbye', 5));
    r.sent(res(200, 'BYE', 'z9hG4bKbye', 5));
    expect(r.received(req('BYE', 'z9hG4bKbye', 5))).toBe(true);
    expect(resent).toEqual([]);
    r.close();
  });
});

describe('close: nothing keeps a stopping process alive', () => {
  it('cancels every timer, and a message sent after close starts none', () => {
    const { r, resent, timeouts } = harness();
    r.sent(req('REGISTER', 'z9hG4bKreg')); // Timers E and F
    r.sent(req('INVITE', 'z9hG4bKinv')); // Timers A and B
    r.sent(res(200, 'INVITE', 'z9hG4bKre', 3)); // our 2xx, until its ACK
    expect(vi.getTimerCount()).toBeGreaterThan(0);
    r.close();
    expect(vi.getTimerCount()).toBe(0);
    // sip.js may still send while ending a session: the transport fails it, no timer starts.
    r.sent(req('BYE', 'z9hG4bKbye2', 6));
    r.sent(res(200, 'OPTIONS', 'z9hG4bKopt'));
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(64 * 20 * 2);
    expect(resent).toEqual([]);
    expect(timeouts).toEqual([]);
  });
});
