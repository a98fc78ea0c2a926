import { createHash, createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { describeError } from '../log';

/** A certificate and its key, ready for Bun's TLS, with what an operator checks or pins. */
export interface CertificatePair {
  /** PEM: the certificate, then the rest of its chain when the file held one. */
  cert: string;
  /** PEM private key. */
  key: string;
  certFile: string;
  /** SHA-256 of the certificate (DER), `AB:CD:…`, as `openssl x509 -fingerprint -sha256` prints it. */
  fingerprint: string;
  /** `sha256//…` of the public key (SPKI): what `curl --pinnedpubkey` and Chromium's SPKI lists take. */
  publicKeyPin: string;
  subject: string;
  /** Subject alternative names, as `DNS:host, IP Address:127.0.0.1`. */
  names: string;
  notAfter: Date;
}

export type TlsErrorCode = 'TLS_UNREADABLE' | 'TLS_BAD_CERTIFICATE' | 'TLS_BAD_KEY' | 'TLS_KEY_MISMATCH' | 'TLS_UNWRITABLE';

/** Why a certificate cannot be used; `message` names the file and is shown as it is. */
export interface TlsError {
  code: TlsErrorCode;
  message: string;
}

export type TlsResult<T> = { ok: true; value: T } | { ok: false; error: TlsError };

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * Reads a PEM certificate (chain) and its key and checks that they belong together, so that
 * a file that does not load is reported by name before Bun is handed it (at start: refused;
 * on SIGHUP: the old certificate stays). Reads asynchronously: SIGHUP runs it while serving.
 */
export async function loadCertificatePair(certFile: string, keyFile: string): Promise<TlsResult<CertificatePair>> {
  let certText: string;
  let keyText: string;
  try {
    [certText, keyText] = await Promise.all([readFile(certFile, 'utf8'), readFile(keyFile, 'utf8')]);
  } catch (e) {
    return failure('TLS_UNREADABLE', `cannot read the certificate or its key: ${describeError(e)}`);
  }
  const blocks = certText.match(PEM_CERTIFICATE) ?? [];
  if (blocks.length === 0) return failure('TLS_BAD_CERTIFICATE', `${certFile} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  let chain: X509Certificate[];
  try {
    chain = blocks.map((b) => new X509Certificate(b));
  } catch (e) {
    return failure('TLS_BAD_CERTIFICATE', `${certFile} is not a valid certificate: ${describeError(e)}`);
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(keyText);
  } catch (e) {
    return failure('TLS_BAD_KEY', `${keyFile} is not a valid unencrypted PEM private key: ${describeError(e)}`);
  }
  const leaf = chain[0]!;
  if (!leaf.checkPrivateKey(key)) return failure('TLS_KEY_MISMATCH', `${keyFile} is not the private key of the certificate in ${certFile}`);
  return {
    ok: true,
    value: {
      // Only the certificates, in file order: text around the blocks (openssl's "subject=" lines) is not PEM.
      cert: blocks.join('\n') + '\n',
      key: keyText,
      certFile,
      fingerprint: leaf.fingerprint256,
      publicKeyPin: publicKeyPin(leaf),
      subject: leaf.subject,
      names: leaf.subjectAltName ?? '',
      notAfter: leaf.validToDate,
    },
  };
}

function publicKeyPin(cert: X509Certificate): string {
  const spki = cert.publicKey.export({ type: 'spki', format: 'der' });
  return `sha256//${createHash('sha256').update(spki).digest('base64')}`;
}

export function failure<T>(code: TlsErrorCode, message: string): TlsResult<T> {
  return { ok: false, error: { code, message } };
}
