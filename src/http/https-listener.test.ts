import { readFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeTestCa, peerFingerprint, type IssuedCertificate, type TestCa } from '../../test/helpers/test-ca';
import { startHttpsListener, type HttpsListener } from './https-listener';
import { serveOptions } from './serve-options';

let ca: TestCa;
let first: IssuedCertificate;
let second: IssuedCertificate;
let listener: HttpsListener | undefined;
const pairOf = (c: IssuedCertificate) => ({ cert: readFileSync(c.certFile, 'utf8'), key: readFileSync(c.keyFile, 'utf8') });

beforeAll(() => {
  ca = makeTestCa();
  first = ca.issue('first');
  second = ca.issue('second');
});
afterEach(async () => {
  await listener?.stop();
  listener = undefined;
});

function start(onServer?: (port: number) => void) {
  listener = startHttpsListener({
    base: serveOptions({ hostname: '127.0.0.1', port: 0, maxRequestBodySize: 1024 }),
    pair: pairOf(first),
    fetch: (request) => new Response(new URL(request.url).protocol),
    onServer: (server) => onServer?.(server.port!),
    drainMs: 100,
  });
  return listener;
}

describe('startHttpsListener', () => {
  it('serves the pair with its chain: a client trusting only the root CA verifies it', async () => {
    const l = start();
    expect(await peerFingerprint('127.0.0.1', l.server.port!, readFileSync(ca.caFile, 'utf8'))).toBe(first.fingerprint);
  });

  it('replace: the same port, the new certificate for new connections; the replaced server stops after the drain', async () => {
    const ports: number[] = [];
    const l = start((port) => ports.push(port));
    const port = l.server.port!;
    expect(await l.replace(pairOf(second))).toEqual({ ok: true, value: undefined });
    expect(ports).toEqual([port, port]);
    await Bun.sleep(150); // drainMs: only the new server is left
    for (let i = 0; i < 10; i++) expect(await peerFingerprint('127.0.0.1', port)).toBe(second.fingerprint);
  });

  it('a pair Bun refuses is an error value and the old certificate stays', async () => {
    const l = start();
    const r = await l.replace({ cert: 'not a certificate', key: 'not a key' });
    expect(r).toMatchObject({ ok: false, error: { code: 'TLS_BAD_CERTIFICATE' } });
    expect(!r.ok && r.error.message).toMatch(/^Bun refused the certificate: /);
    await Bun.sleep(150);
    expect(await peerFingerprint('127.0.0.1', l.server.port!)).toBe(first.fingerprint);
  });

  it('while draining, the replaced server answers with Connection: close so keep-alive clients move over', async () => {
    const l = start();
    const port = l.server.port!;
    // A keep-alive connection opened before the replace stays on the old server.
    const tls = await import('node:tls');
    const socket = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false });
    await new Promise((resolve) => socket.once('secureConnect', resolve));
    expect(socket.getPeerCertificate().fingerprint256).toBe(first.fingerprint);
    await l.replace(pairOf(second));
    const answer = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (d) => (text += d));
      socket.on('end', () => resolve(text));
    });
    socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const text = await answer; // the server closes the connection after the answer
    expect(text).toMatch(/^HTTP\/1\.1 200/);
    expect(text.toLowerCase()).toContain('connection: close');
    expect(text.endsWith('https:')).toBe(true);
  });
});
