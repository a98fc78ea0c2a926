import { dirname } from 'node:path';
import type { Config } from '../config';
import { parseHostPort } from '../config/host-port';
import { loadCertificatePair, type CertificatePair, type TlsResult } from './certificate';
import { selfSignedNames } from './certificate-names';
import { ensureSelfSigned, selfSignedFiles } from './self-signed';

/** The files HTTPS is served from, and whether the appliance made them itself. */
export interface TlsSource {
  certFile: string;
  keyFile: string;
  selfSigned: boolean;
}

/** Where the certificate comes from, by the configuration alone; null: plain HTTP (http.tls off, no files). */
export function tlsSource(config: Config): TlsSource | null {
  const http = config.http;
  if (http.tls_cert_file !== '') return { certFile: http.tls_cert_file, keyFile: http.tls_key_file, selfSigned: false };
  // The data folder is the folder of store.path, as for secret.key and tts-cache
  // (docs/operations.md "Data").
  if (http.tls === 'self-signed') return { ...selfSignedFiles(dirname(config.store.path)), selfSigned: true };
  return null;
}

/** The certificate `serve` starts with: made first when self-signed and not made yet. */
export interface StartingTls {
  source: TlsSource;
  pair: CertificatePair;
  /** True on the start that made the self-signed certificate. */
  created: boolean;
}

/** Reads (and for self-signed, first makes) the certificate; null when the configuration asks for none. */
export async function prepareTls(config: Config): Promise<TlsResult<StartingTls | null>> {
  const source = tlsSource(config);
  if (!source) return { ok: true, value: null };
  let created = false;
  if (source.selfSigned) {
    const made = await ensureSelfSigned(dirname(config.store.path), selfSignedNames(parseHostPort(config.http.listen)!.host));
    if (!made.ok) return made;
    created = made.value.created;
  }
  const pair = await loadCertificatePair(source.certFile, source.keyFile);
  if (!pair.ok) return pair;
  return { ok: true, value: { source, pair: pair.value, created } };
}
