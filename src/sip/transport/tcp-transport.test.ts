import { createServer, type Socket } from 'node:net';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../../test/helpers/ports';
import { silentLogger } from '../../log';
import { createStreamFramer } from './stream-framer';
import { TcpTransport } from './tcp-transport';

const options = (n: number) =>
  `OPTIONS sip:pbx@127.0.0.1 SIP/2.0\r\nVia: SIP/2.0/TCP 127.0.0.1;branch=z9hG4bKtcp${n};rport\r\nFrom: <sip:a@127.0.0.1>;tag=1\r\nTo: <sip:pbx@127.0.0.1>\r\nCall-ID: tcp${n}\r\nCSeq: ${n} OPTIONS\r\nContent-Length: 0\r\n\r\n`;

describe('SIP over TCP', () => {
  it('frames by Content-Length, puts our port in Via, and reconnects after the PBX drops the connection', async () => {
    const received: { conn: number; text: string }[] = [];
    const sockets: Socket[] = [];
    const server = createServer((s) => {
      const conn = sockets.push(s);
      const framer = createStreamFramer();
      s.on('data', (d: Buffer) => {
        for (const m of framer.push(d)) {
          received.push({ conn, text: m });
          // Answer in two pieces to exercise the framer on our side.
          const via = /^Via: .*$/m.exec(m)![0];
          const reply = `SIP/2.0 200 OK\r\n${via}\r\nFrom: <sip:a@127.0.0.1>;tag=1\r\nTo: <sip:pbx@127.0.0.1>;tag=2\r\nCall-ID: ${/Call-ID: (.*)/.exec(m)![1]}\r\nCSeq: ${/CSeq: (.*)/.exec(m)![1]}\r\nContent-Length: 0\r\n\r\n`;
          s.write(reply.slice(0, 20));
          setTimeout(() => s.write(reply.slice(20)), 10);
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    const t = new TcpTransport(undefined, { server: { host: '127.0.0.1', port }, localAddress: '127.0.0.1', localPort: 0, t1Ms: 50, t2Ms: 400, log: silentLogger() });
    const messages: string[] = [];
    t.onMessage = (m) => messages.push(m);
    await t.connect();
    await t.send(options(1));
    await expect.poll(() => messages).toHaveLength(1);
    expect(received).toHaveLength(1);
    expect(received[0]!.text).toMatch(new RegExp(`^Via: SIP/2.0/TCP 127\\.0\\.0\\.1:${t.localPort()};branch=z9hG4bKtcp1;rport`, 'm'));
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/^SIP\/2\.0 200 OK/);
    // sip.js must see the Via without our port (its own §18.1.2 check).
    expect(messages[0]).toMatch(/^Via: SIP\/2\.0\/TCP 127\.0\.0\.1;branch/m);

    sockets[0]!.destroy(); // the PBX restarts
    await expect.poll(() => t.isConnected()).toBe(false);
    await t.send(options(2));
    await expect.poll(() => messages).toHaveLength(2);
    expect(received.map((r) => r.conn)).toEqual([1, 2]);
    await t.disconnect();
    await new Promise<void>((r) => server.close(() => r()));
  });

  // Retry lives in one place, the trunk supervisor (src/calls/index.ts): the transport tries
  // once and reports. It used to try four times over ~5 s below a supervisor that retried too.
  it('connects once: a refused connection rejects connect() at once, frees the listener and is logged once', async () => {
    const dead = await freePort();
    const lines: { msg: string }[] = [];
    const log = pino({ level: 'warn' }, { write: (l: string) => lines.push(JSON.parse(l)) });
    const t = new TcpTransport(undefined, { server: { host: '127.0.0.1', port: dead }, localAddress: '127.0.0.1', localPort: 0, t1Ms: 50, t2Ms: 400, log });
    const states: string[] = [];
    t.stateChange.addListener((s) => states.push(s));
    await expect(t.connect()).rejects.toThrow(/ECONNREFUSED/);
    expect(lines.filter((l) => l.msg === 'sip tcp connect failed')).toHaveLength(1);
    expect(states).toEqual(['Connecting', 'Disconnected']);
    expect(t.localPort()).toBe(0); // the listener went: a later start binds the port again
  });

  // sip.js answers an unsendable request with a bare 503; the cause is kept for the call (index.ts item 23).
  it("keeps why a Call-ID's message could not be sent, given once, and only the newest 32", async () => {
    const dead = await freePort();
    const t = new TcpTransport(undefined, { server: { host: '127.0.0.1', port: dead }, localAddress: '127.0.0.1', localPort: 0, t1Ms: 50, t2Ms: 400, log: silentLogger() });
    for (let n = 1; n <= 40; n++) await expect(t.send(options(n))).rejects.toThrow(/ECONNREFUSED/);
    expect(t.sendFailure('tcp40')).toMatch(/ECONNREFUSED/);
    expect(t.sendFailure('tcp40')).toBeUndefined();
    expect(t.sendFailure('tcp9')).toMatch(/ECONNREFUSED/);
    expect(t.sendFailure('tcp8')).toBeUndefined();
    expect(t.sendFailure('never-sent')).toBeUndefined();
  });
});
