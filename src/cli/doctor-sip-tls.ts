import type { SipConfig } from '../config/sections/sip';
import { TlsCertificateError } from '../sip/transport';
import type { DoctorCheck } from '../outward';

type TlsKeys = Pick<SipConfig, 'server' | 'transport' | 'tls_ca_file' | 'tls_verify'>;

/**
 * The `trunk.tls` line of `voice-alert doctor` for a trunk with transport = "tls"
 * (docs/telephony.md "SIP over TLS and SRTP"): whose certificate was accepted and against what, or
 * why it was refused and which key fixes it. Null for other transports, and for a failure that is
 * no certificate's (the trunk.options line reports those).
 */
export function trunkTlsCheck(sip: TlsKeys, error?: unknown): DoctorCheck | null {
  if (sip.transport !== 'tls') return null;
  const against = sip.tls_ca_file ? `tls_ca_file ${sip.tls_ca_file}` : "the system's CAs";
  if (error instanceof TlsCertificateError) {
    return {
      name: 'trunk.tls',
      status: 'fail',
      detail: `${error.message}; checked against ${against}`,
      remedy: 'set sip.tls_ca_file to the CA that signed the PBX certificate, and sip.server to a name (or address) the certificate holds; sip.tls_verify = false skips the check',
    };
  }
  if (error !== undefined) return null;
  return sip.tls_verify
    ? { name: 'trunk.tls', status: 'ok', detail: `${sip.server} presented a certificate trusted by ${against}` }
    : { name: 'trunk.tls', status: 'ok', detail: `${sip.server} connected over TLS; its certificate is NOT checked (sip.tls_verify = false)` };
}
