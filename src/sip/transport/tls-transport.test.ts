import { readFileSync } from 'node:fs';
import { createServer, type Server, type TLSSocket } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { makeTestCa } from '../../../test/helpers/test-ca';
import { silentLogger } from '../../log';
import { createStreamFramer } from './stream-framer';
import { TlsCertificateError, TlsTransport } from './tls-transport';

const options = (n: number) =>
  `OPTIONS sip:pbx@127.0.0.1 SIP/2.0\r\nVia: SIP/2.0/TLS 127.0.0.1;branch=z9hG4bKtls${n};rport\r\nFrom: <sip:a@127.0.0.1>;tag=1\r\nTo: <sip:pbx@127.0.0.1>\r\nCall-ID: tls${n}\r\nCSeq: ${n} OPTIONS\r\nContent-Length: 0\r\n\r\n`;

/** A TLS "PBX" that answers every request 200 on the connection it came on. */
async function tlsPbx(cert: { certFile: string; keyFile: string }) {
  const received: string[] = [];
  const sockets: TLSSocket[] = [];
  const server: Server = createServer({ cert: readFileSync(cert.certFile), key: readFileSync(cert.keyFile) }, (s) => {
    sockets.push(s);
    const framer = createStreamFramer();
    s.on('error', () => undefined);
    s.on('data', (d: Buffer) => {
      for (const m of framer.push(d)) {
        received.push(m);
        const via = /^Via: .*$/m.exec(m)![0];
        s.write(`SIP/2.0 200 OK\r\n${via}\r\nFrom: <sip:a@127.0.0.1>;tag=1\r\nTo: <sip:pbx@127.0.0.1>;tag=2\r\nCall-ID: ${/Call-ID: (.*)/.exec(m)![1]}\r\nCSeq: ${/CSeq: (.*)/.exec(m)![1]}\r\nContent-Length: 0\r\n\r\n`);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { server, received, sockets, port: (server.address() as { port: number }).port, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const transport = (port: number, tls: { caFile: string; verify: boolean }, host = '127.0.0.1') =>
  new TlsTransport(undefined, { server: { host, port }, localAddress: '127.0.0.1', localPort: 0, t1Ms: 50, t2Ms: 400, tls, log: silentLogger() });

describe('SIP over TLS', () => {
  const ca = makeTestCa();
  const good = ca.issue('pbx', ['IP:127.0.0.1', 'DNS:localhost']);
  const otherCa = makeTestCa();

  it('verifies the PBX against tls_ca_file, sends Via SIP/2.0/TLS with our connection port, and reconnects from the same port', async () => {
    const pbx = await tlsPbx(good);
    const t = transport(pbx.port, { caFile: ca.caFile, verify: true });
    const messages: string[] = [];
    t.onMessage = (m) => messages.push(m);
    await t.connect();
    const port = t.localPort();
    await expect.poll(() => pbx.sockets[0]?.remotePort).toBe(port); // Contact/Via name this very connection
    await t.send(options(1));
    await expect.poll(() => messages).toHaveLength(1);
    expect(pbx.received[0]).toMatch(new RegExp(`^Via: SIP/2.0/TLS 127\\.0\\.0\\.1:${port};branch=z9hG4bKtls1;rport`, 'm'));
    pbx.sockets[0]!.destroy(); // the PBX drops the connection
    await expect.poll(() => t.isConnected()).toBe(false);
    await t.send(options(2));
    await expect.poll(() => messages).toHaveLength(2);
    expect(pbx.sockets).toHaveLength(2);
    expect(t.localPort()).toBe(port);
    await t.disconnect();
    await pbx.close();
  });

  it('refuses a certificate from another CA, and one for another name, with TlsCertificateError', async () => {
    const pbx = await tlsPbx(good);
    const wrongCa = transport(pbx.port, { caFile: otherCa.caFile, verify: true });
    const e = await wrongCa.connect().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TlsCertificateError);
    expect(String((e as Error).message)).toMatch(/^the TLS certificate of 127\.0\.0\.1:\d+ was refused: .+ \([A-Z_]+\)$/);
    await pbx.close();

    const named = await tlsPbx(ca.issue('elsewhere', ['DNS:pbx.example.net']));
    const e2 = await transport(named.port, { caFile: ca.caFile, verify: true }, 'localhost').connect().catch((x: unknown) => x);
    expect(e2).toBeInstanceOf(TlsCertificateError);
    expect((e2 as TlsCertificateError).code).toMatch(/ALTNAME|HOSTNAME/);
    await named.close();
  });

  it('refuses a private CA it was not told of (system CAs only), and connects to it with tls_verify = false', async () => {
    const pbx = await tlsPbx(good);
    await expect(transport(pbx.port, { caFile: '', verify: true }).connect()).rejects.toBeInstanceOf(TlsCertificateError);
    const unchecked = transport(pbx.port, { caFile: '', verify: false });
    await unchecked.connect();
    expect(unchecked.isConnected()).toBe(true);
    await unchecked.disconnect();
    await expect(transport(pbx.port, { caFile: '/nonexistent/ca.pem', verify: true }).connect()).rejects.toThrow(/^cannot read sip\.tls_ca_file \/nonexistent\/ca\.pem: /);
    await pbx.close();
  });
});
