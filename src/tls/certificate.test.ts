import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestCa, type IssuedCertificate, type TestCa } from '../../test/helpers/test-ca';
import { loadCertificatePair } from './certificate';

let ca: TestCa;
let server: IssuedCertificate;
let other: IssuedCertificate;
const scratch = mkdtempSync(join(tmpdir(), 'va-tls-load-'));
const file = (name: string, text: string) => {
  writeFileSync(join(scratch, name), text);
  return join(scratch, name);
};

beforeAll(() => {
  ca = makeTestCa();
  server = ca.issue('server');
  other = ca.issue('other');
});

describe('loadCertificatePair', () => {
  it('loads a chain and its key: the leaf first, the fingerprint and key pin of the leaf, its names and expiry', async () => {
    const r = await loadCertificatePair(server.certFile, server.keyFile);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.fingerprint).toBe(server.fingerprint);
    expect(r.value.publicKeyPin).toBe(`sha256//${server.spkiHash}`);
    expect(r.value.names).toBe('IP Address:127.0.0.1, DNS:localhost');
    expect(r.value.subject).toBe('CN=server');
    expect(r.value.notAfter.getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    // Both certificates of the chain are served, the leaf first.
    expect(r.value.cert.match(/BEGIN CERTIFICATE/g)).toHaveLength(2);
    expect(r.value.cert.startsWith(readFileSync(join(ca.dir, 'server.leaf.pem'), 'utf8').trim())).toBe(true);
  });

  it('keeps only the PEM blocks of a file with text around them (openssl\'s "subject=" lines)', async () => {
    const cert = file('annotated.pem', `subject=CN = server\nissuer=CN = voice-alert test intermediate\n${readFileSync(server.certFile, 'utf8')}`);
    const r = await loadCertificatePair(cert, server.keyFile);
    expect(r.ok && r.value.cert.startsWith('-----BEGIN CERTIFICATE-----')).toBe(true);
  });

  it.each([
    ['a missing file', () => [join(scratch, 'none.pem'), server.keyFile], 'TLS_UNREADABLE', /cannot read the certificate or its key: .*ENOENT/],
    ['no certificate in the file', () => [file('empty.pem', 'not a certificate\n'), server.keyFile], 'TLS_BAD_CERTIFICATE', /empty\.pem holds no PEM certificate/],
    [
      'a damaged certificate',
      () => [file('damaged.pem', '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n'), server.keyFile],
      'TLS_BAD_CERTIFICATE',
      /damaged\.pem is not a valid certificate/,
    ],
    ['a key that is no key', () => [server.certFile, file('bad.key', 'secret\n')], 'TLS_BAD_KEY', /bad\.key is not a valid unencrypted PEM private key/],
    ['the key of another certificate', () => [server.certFile, other.keyFile], 'TLS_KEY_MISMATCH', /other\.key is not the private key of the certificate in .*server\.pem/],
  ] as const)('refuses %s with a code and a message naming the file', async (_, files, code, message) => {
    const [cert, key] = files();
    const r = await loadCertificatePair(cert!, key!);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe(code);
    expect(r.error.message).toMatch(message);
  });
});
