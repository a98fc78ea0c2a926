import type { Server } from 'bun';
import { parseHostPort, type Config } from '../config';
import type { Logger } from '../log';
import { loadCertificatePair, type CertificatePair, type StartingTls } from '../tls';
import type { HttpApp } from './app';
import { startHttpsListener } from './https-listener';
import { httpsRedirect, isPanelPath } from './https-redirect';
import { requestPath } from './request-path';
import { serveOptions } from './serve-options';

/** Where the appliance answers, and how its certificate is renewed. */
export interface Listening {
  /** `http://…` or `https://…` with the bound port (real even when the config said 0). */
  url: string;
  /** http.plain_listen's bound address, or null. */
  plainUrl: string | null;
  /**
   * SIGHUP (docs/https.md "HTTPS"): re-reads the certificate and key; a pair that does not load is
   * logged and the old certificate stays. Logs and resolves in every case.
   */
  reloadTls(): Promise<void>;
  /** Stops taking connections; requests in flight are answered first. */
  stop(): Promise<void>;
}

// Bun's own body cap answers 413 in plain text; ours (max_body_bytes) answers in JSON,
// so Bun's is set well above it.
const BUN_BODY_CAP = 16 * 1024 * 1024;

/**
 * Serves `app` on http.listen: plain HTTP through Elysia's own listen when there is no
 * certificate, else HTTPS (https-listener.ts), with http.plain_listen beside it where the
 * panel redirects to HTTPS and everything else is answered as on HTTPS.
 */
export function listen(app: HttpApp, o: { config: Config; log: Logger; tls: StartingTls | null }): Listening {
  const { host, port } = parseHostPort(o.config.http.listen)!;
  const base = serveOptions({ hostname: host, port, maxRequestBodySize: BUN_BODY_CAP });
  if (!o.tls) {
    app.listen(base);
    const server = app.server!;
    return {
      url: urlOf('http', server),
      plainUrl: null,
      async reloadTls() {
        o.log.info('SIGHUP: no certificate to reload (http.tls is off)');
      },
      stop: () => server.stop(false), // false: requests in flight are answered first
    };
  }
  const { source } = o.tls;
  const handle = (request: Request) => app.fetch(request);
  const https = startHttpsListener({
    base,
    pair: o.tls.pair,
    fetch: handle,
    // Routes read the client address through the app's server (server.requestIP).
    onServer: (server) => (app.server = server as HttpApp['server']),
  });
  const plain = o.config.http.plain_listen ? parseHostPort(o.config.http.plain_listen)! : null;
  const publicUrl = o.config.panel.public_url;
  let plainServer: Server<undefined> | null = null;
  try {
    plainServer = plain
      ? Bun.serve({
          ...serveOptions({ hostname: plain.host, port: plain.port, maxRequestBodySize: BUN_BODY_CAP }),
          idleTimeout: 30,
          fetch: (request) => (isPanelPath(requestPath(request)) ? httpsRedirect(request, https.server.port!, publicUrl) : handle(request)),
        })
      : null;
  } catch (e) {
    // Its port taken: the start fails, and the HTTPS server must not keep the process alive.
    void https.stop();
    throw e;
  }
  return {
    url: urlOf('https', https.server),
    plainUrl: plainServer ? urlOf('http', plainServer) : null,
    async reloadTls() {
      const loaded = await loadCertificatePair(source.certFile, source.keyFile);
      if (!loaded.ok) {
        o.log.error({ code: loaded.error.code, error: loaded.error.message, certificate: source.certFile }, 'SIGHUP: certificate not reloaded, the old one stays');
        return;
      }
      const replaced = await https.replace(loaded.value);
      if (!replaced.ok) {
        o.log.error({ code: replaced.error.code, error: replaced.error.message, certificate: source.certFile }, 'SIGHUP: certificate not reloaded, the old one stays');
        return;
      }
      o.log.info(certificateFields(loaded.value), 'SIGHUP: certificate reloaded');
    },
    async stop() {
      await Promise.all([https.stop(), plainServer?.stop(false)]);
    },
  };
}

/** The log fields that identify a certificate: what an operator compares or pins. */
export function certificateFields(pair: CertificatePair) {
  return { certificate: pair.certFile, fingerprint: pair.fingerprint, publicKeyPin: pair.publicKeyPin, expires: pair.notAfter.toISOString() };
}

function urlOf(scheme: 'http' | 'https', server: Server<undefined>): string {
  const shownHost = server.hostname?.includes(':') ? `[${server.hostname}]` : server.hostname;
  return `${scheme}://${shownHost}:${server.port}`;
}
