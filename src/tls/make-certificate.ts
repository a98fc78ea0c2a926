import type { CertificateNames } from './certificate-names';

/** ECDSA P-256 with SHA-256: small, fast, and accepted by every TLS client still in use. */
const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const VALID_YEARS = 10;

/**
 * A self-signed server certificate made with the platform's WebCrypto (docs/https.md "HTTPS"):
 * valid 10 years from an hour ago (a client clock a little behind still accepts it), for
 * `names` only. Not a CA (basicConstraints CA:false): trusting it trusts this one server.
 */
export async function makeSelfSignedCertificate(names: CertificateNames, now = new Date()): Promise<{ cert: string; key: string }> {
  const x509 = await loadX509();
  const keys = await crypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const notBefore = new Date(now.getTime() - 3600_000);
  const notAfter = new Date(notBefore);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + VALID_YEARS);
  // RFC 5280 §4.1.2.2: a positive serial of at most 20 octets; random, so two appliances never share one.
  const serial = crypto.getRandomValues(new Uint8Array(16));
  serial[0] = (serial[0]! & 0x7f) | 0x01;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Buffer.from(serial).toString('hex'),
    name: 'CN=voice-alert',
    notBefore,
    notAfter,
    signingAlgorithm: ALGORITHM,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([
        ...names.dns.map((value) => ({ type: 'dns' as const, value })),
        ...names.ips.map((value) => ({ type: 'ip' as const, value })),
      ]),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  const pkcs8 = await crypto.subtle.exportKey('pkcs8', keys.privateKey);
  return { cert: cert.toString('pem') + '\n', key: x509.PemConverter.encode(pkcs8, 'PRIVATE KEY') + '\n' };
}

/**
 * tsyringe, under @peculiar/x509, needs the Reflect metadata API when it is first evaluated.
 * Two awaited imports, in this order: as static imports of one module, the bundle of
 * `bun build --compile` evaluated the library first and it refused to load.
 */
async function loadX509() {
  await import('reflect-metadata');
  return import('@peculiar/x509');
}
