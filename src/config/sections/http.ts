import * as z from 'zod';
import { parseHostPort } from '../host-port';

/** 0.0.0.0 and :: take every address: another listener on that port would collide. */
const WILDCARDS = new Set(['0.0.0.0', '::', '']);

export const httpSection = z
  .object({
    /** Address the HTTP server binds, `host:port` (IPv6 as `[::1]:8080`). */
    listen: z
      .string()
      .refine((v) => parseHostPort(v) !== null, 'expected host:port, e.g. 0.0.0.0:8080')
      .default('0.0.0.0:8080'),
    /** Requests per minute per source IP on the alert endpoints; 0 disables the limit. */
    rate_limit_per_minute: z.number().int().min(0).default(60),
    /** Take the client IP from X-Forwarded-For (only behind a reverse proxy you run). */
    trust_proxy: z.boolean().default(false),
    /** Largest accepted request body. */
    max_body_bytes: z.number().int().min(1024).default(64 * 1024),
    /**
     * HTTPS on `listen` (docs/https.md "HTTPS"): `self-signed` makes a certificate on the first
     * start and keeps it in `<data folder>/tls/`; `off` serves plain HTTP unless the two files
     * below are given, which are then served.
     */
    tls: z.enum(['off', 'self-signed']).default('off'),
    /** PEM certificate (a chain may follow it in the same file), re-read on SIGHUP. */
    tls_cert_file: z.string().default(''),
    /** PEM private key of that certificate, re-read on SIGHUP. */
    tls_key_file: z.string().default(''),
    /** A second, plain-HTTP address beside HTTPS: the alert endpoints work there, the panel redirects to HTTPS. */
    plain_listen: z
      .string()
      .refine((v) => v === '' || parseHostPort(v) !== null, 'expected host:port, e.g. 0.0.0.0:8080, or ""')
      .default(''),
    /** Send Strict-Transport-Security on HTTPS answers (RFC 6797). */
    hsts: z.boolean().default(false),
  })
  .strict()
  // The combinations that cannot mean anything: refused at start with the key to change.
  .superRefine((http, ctx) => {
    const files = http.tls_cert_file !== '' || http.tls_key_file !== '';
    if (http.tls === 'self-signed' && files) {
      ctx.addIssue({
        code: 'custom',
        path: ['tls'],
        message: 'either your own certificate (http.tls_cert_file and http.tls_key_file) or a self-signed one, not both',
      });
      return;
    }
    if (http.tls_cert_file !== '' && http.tls_key_file === '') {
      ctx.addIssue({ code: 'custom', path: ['tls_cert_file'], message: 'needs http.tls_key_file too: the private key of this certificate (PEM)' });
      return;
    }
    if (http.tls_key_file !== '' && http.tls_cert_file === '') {
      ctx.addIssue({ code: 'custom', path: ['tls_key_file'], message: 'needs http.tls_cert_file too: the certificate of this key (PEM)' });
      return;
    }
    const https = files || http.tls === 'self-signed';
    if (http.plain_listen !== '' && !https) {
      ctx.addIssue({
        code: 'custom',
        path: ['plain_listen'],
        message: 'only beside HTTPS: set http.tls_cert_file and http.tls_key_file, or http.tls = "self-signed" (else http.listen is plain already)',
      });
      return;
    }
    if (http.plain_listen !== '' && collide(http.listen, http.plain_listen)) {
      ctx.addIssue({ code: 'custom', path: ['plain_listen'], message: `takes the port of http.listen (${http.listen}): give it a port of its own` });
      return;
    }
    if (http.hsts && !https) {
      ctx.addIssue({
        code: 'custom',
        path: ['hsts'],
        message: 'needs HTTPS on http.listen (behind an HTTPS reverse proxy, let the proxy send Strict-Transport-Security)',
      });
    }
  });

/** Two listen addresses that would bind the same socket (port 0: each gets its own port). */
function collide(a: string, b: string): boolean {
  const x = parseHostPort(a);
  const y = parseHostPort(b);
  if (!x || !y || x.port === 0 || x.port !== y.port) return false;
  return x.host === y.host || WILDCARDS.has(x.host) || WILDCARDS.has(y.host);
}
