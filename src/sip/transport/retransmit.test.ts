import { describe, expect, it } from 'vitest';
import { createRetransmitter } from './retransmit';

const req = (method: string, branch: string, cseq = 1) =>
  `${method} sip:1@h SIP/2.0\r\nVia: SIP/2.0/UDP 127.0.0.1:5060;branch=${branch};rport\r\nFrom: <sip:a@h>;tag=f\r\nTo: <sip:1@h>\r\nCall-ID: c1\r\nCSeq: ${cseq} ${method}\r\nContent-Length: 0\r\n\r\n`;
const res = (status: number, method: string, branch: string, cseq = 1) =>
  `SIP/2.0 ${status} X\r\nVia: SIP/2.0/UDP 127.0.0.1:5060;branch=${branch};rport=5060\r\nFrom: <sip:a@h>;tag=f\r\nTo: <sip:1@h>;tag=t\r\nCall-ID: c1\r\nCSeq: ${cseq} ${method}\r\nContent-Length: 0\r\n\r\n`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function harness(reliable = false) {
  const resent: { at: number; m: string }[] = [];
  const timeouts: string[] = [];
  const start = performance.now();
  const r = createRetransmitter({
    t1Ms: 20,
    t2Ms: 80,
    reliable,
    resend: (m) => resent.push({ at: performance.now() - start, m }),
    timedOut: (m) => timeouts.push(m),
  });
  return { r, resent, timeouts };
}

describe('RFC 3261 §17 client retransmission', () => {
  it('Timer A doubles the INVITE interval and Timer B gives a local 408 after 64*T1', async () => {
    const { r, resent, timeouts } = harness();
    r.sent(req('INVITE', 'z9hG4bKa'));
    await sleep(64 * 20 + 100);
    // resends due at 20, 60, 140, 300, 620, 1260 ms; the last one races Timer B (1280 ms)
    // on a loaded machine, as it does with the RFC's own numbers (31.5 s vs 32 s).
    expect(resent.length).toBeGreaterThanOrEqual(5);
    expect(resent.length).toBeLessThanOrEqual(6);
    const gaps = resent.map((x, i) => x.at - (i ? resent[i - 1]!.at : 0));
    // Timers never fire early: each interval is at least double the one before (Timer A).
    gaps.forEach((g, i) => expect(g).toBeGreaterThanOrEqual(20 * 2 ** i - 2));
    expect(timeouts).toHaveLength(1);
    expect(timeouts[0]).toMatch(/^SIP\/2\.0 408 /);
    expect(timeouts[0]).toMatch(/CSeq: 1 INVITE/);
    expect(r.pending()).toBe(0);
    r.close();
  });

  it('a provisional response stops INVITE retransmission and Timer B', async () => {
    const { r, resent, timeouts } = harness();
    r.sent(req('INVITE', 'z9hG4bKb'));
    await sleep(30);
    expect(r.received(res(180, 'INVITE', 'z9hG4bKb'))).toBe(true);
    const n = resent.length;
    await sleep(64 * 20 + 50);
    expect(resent.length).toBe(n);
    expect(timeouts).toHaveLength(0);
    r.close();
  });

  it('non-INVITE Timer E caps at T2', async () => {
    const { r, resent } = harness();
    r.sent(req('BYE', 'z9hG4bKc', 2));
    await sleep(600);
    const gaps = resent.slice(1).map((x, i) => x.at - resent[i]!.at);
    expect(Math.max(...gaps)).toBeLessThan(80 + 30);
    expect(gaps.at(-1)!).toBeGreaterThan(80 - 10);
    expect(r.received(res(200, 'BYE', 'z9hG4bKc', 2))).toBe(true);
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

  it('on a reliable transport only Timer B/F run', async () => {
    const { r, resent, timeouts } = harness(true);
    r.sent(req('OPTIONS', 'z9hG4bKe'));
    await sleep(64 * 20 + 80);
    expect(resent).toHaveLength(0);
    expect(timeouts).toHaveLength(1);
    r.close();
  });

  it('resends our 2xx to an INVITE from the far end until its ACK arrives (§13.3.1.4)', async () => {
    const { r, resent } = harness();
    r.sent(res(200, 'INVITE', 'z9hG4bKreinvite', 2));
    await sleep(150); // resends at 20, 60, 140 ms
    expect(resent.length).toBeGreaterThanOrEqual(2);
    expect(r.received(req('ACK', 'z9hG4bKack2', 2))).toBe(true);
    const n = resent.length;
    await sleep(200);
    expect(resent.length).toBe(n);
    r.close();
  });
});
