import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Config } from '../config';
import { iso } from '../outward';
import { loadCertificatePair, tlsSource } from '../tls';
import type { DoctorCheck } from '../outward';

/**
 * `tls` (only when HTTPS is configured, docs/https.md "HTTPS"): the certificate loads with its key,
 * its SHA-256 fingerprint to compare with what a client pinned, its names and expiry.
 */
export async function checkTls(config: Config, now = new Date()): Promise<DoctorCheck[]> {
  const source = tlsSource(config);
  if (!source) return [];
  if (source.selfSigned && !existsSync(source.certFile)) {
    return [{ name: 'tls', status: 'ok', detail: `self-signed: made on the first start in ${dirname(source.certFile)}` }];
  }
  const loaded = await loadCertificatePair(source.certFile, source.keyFile);
  if (!loaded.ok) {
    const remedy = source.selfSigned
      ? `delete ${source.certFile} and ${source.keyFile} to make a new one on the next start (clients that pinned the old fingerprint must pin the new one)`
      : 'point http.tls_cert_file and http.tls_key_file at a PEM certificate and its unencrypted key, readable by the service user';
    return [{ name: 'tls', status: 'fail', detail: loaded.error.message, remedy }];
  }
  const pair = loaded.value;
  const detail = `${source.selfSigned ? 'self-signed ' : ''}${pair.certFile}: SHA-256 fingerprint ${pair.fingerprint}, public key ${pair.publicKeyPin}, names ${pair.names || '(none)'}, expires ${iso(pair.notAfter.getTime())}`;
  if (pair.notAfter <= now) {
    return [{ name: 'tls', status: 'fail', detail: `expired: ${detail}`, remedy: 'renew the certificate, then send SIGHUP (systemctl reload voice-alert)' }];
  }
  return [{ name: 'tls', status: 'ok', detail }];
}
