/**
 * HTTPS material (docs/https.md "HTTPS"): the certificate and key from files or made on the first
 * start, checked before Bun serves them. A leaf folder: src/http serves what it loads,
 * `voice-alert doctor` reports on it.
 */
export { loadCertificatePair, type CertificatePair, type TlsError, type TlsErrorCode, type TlsResult } from './certificate';
export { selfSignedNames, type CertificateNames } from './certificate-names';
export { ensureSelfSigned, selfSignedFiles } from './self-signed';
export { prepareTls, tlsSource, type StartingTls, type TlsSource } from './tls-source';
