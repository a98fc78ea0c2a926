import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { connect, getCACertificates, type ConnectionOptions, type TLSSocket } from 'node:tls';
import { isWildcard } from './local-address';
import { markReceived } from './received-param';
import { readSipMessages } from './tcp-listener';
import { TransportState } from './sip-js';
import { SipTransportBase } from './transport-base';
import { describeError } from '../../log';

/** The PBX's certificate was refused (untrusted issuer, wrong name, expired …): never retried into success. */
export class TlsCertificateError extends Error {
  constructor(
    readonly server: string,
    /** OpenSSL's code, e.g. SELF_SIGNED_CERT_IN_CHAIN, ERR_TLS_CERT_ALTNAME_INVALID. */
    readonly code: string,
    reason: string,
  ) {
    super(`the TLS certificate of ${server} was refused: ${reason} (${code})`);
    this.name = 'TlsCertificateError';
  }
}

/** Verification failures as OpenSSL and node:tls name them (a connection refused is not one). */
const CERTIFICATE_CODES = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ALTNAME|DEPTH_ZERO|HOSTNAME/;

/**
 * SIP over TLS (RFC 3261 §26.2, docs/telephony.md "SIP over TLS and SRTP"): one connection we open
 * to the PBX (`sip.server`, conventionally port 5061), its certificate checked against the
 * system's CAs, or only `tls_ca_file` when set, and against the server's name; with
 * `tls_verify = false` nothing is checked (the operator's choice, logged at start).
 *
 * node:tls here is Bun's own TLS socket (BoringSSL) behind node's Socket interface, so the
 * Content-Length framing (tcp-listener.ts readSipMessages) is shared with TCP.
 *
 * Unlike TCP we listen nowhere: we hold no certificate for the PBX to check. Via and Contact
 * name the local port of our connection (transport=tls), so a PBX that sends in-dialog
 * requests "to the Contact" finds this very connection (RFC 5923's reuse, which Kamailio and
 * Asterisk do by address and port). A lost connection is reported like TCP's; the next
 * message opens a new one from the same local port when it is free, so the Contact stays true.
 */
export class TlsTransport extends SipTransportBase {
  readonly protocol = 'TLS';
  private socket: TLSSocket | null = null;
  private port = 0;
  private opening: Promise<void> | null = null;
  private closing = false;

  localPort(): number {
    return this.port;
  }

  protected reliable(): boolean {
    return true;
  }

  protected async open(): Promise<void> {
    this.closing = false;
    try {
      this.socket = await this.dial(this.port || undefined).catch((e: unknown) => {
        // The old local port is taken (TIME_WAIT, another socket): any port will do.
        if (this.port && (e as NodeJS.ErrnoException).code === 'EADDRINUSE') return this.dial(undefined);
        throw e;
      });
    } catch (e) {
      this.opts.log.warn({ error: describeError(e), server: this.opts.server }, 'sip tls connect failed');
      throw e;
    }
    this.port = this.socket.localPort ?? 0;
  }

  private dial(localPort: number | undefined): Promise<TLSSocket> {
    const { host, port } = this.opts.server;
    const tls = this.opts.tls ?? { caFile: '', verify: true };
    const where = `${host}:${port}`;
    let ca: string | string[];
    try {
      ca = tls.caFile ? readFileSync(tls.caFile, 'utf8') : systemCas();
    } catch (e) {
      return Promise.reject(new Error(`cannot read sip.tls_ca_file ${tls.caFile}: ${(e as Error).message}`));
    }
    return new Promise((resolve, reject) => {
      const socket = connect({
        host,
        port,
        // SNI and the name checked in the certificate (RFC 5922 §7.2); an address is matched against IP SANs.
        servername: isIP(host) ? undefined : host,
        localAddress: isWildcard(this.opts.localAddress) ? undefined : this.opts.localAddress,
        localPort,
        ca,
        rejectUnauthorized: tls.verify,
      } as ConnectionOptions); // localAddress and localPort are net.connect's, passed through
      const failed = (e: NodeJS.ErrnoException) => {
        socket.destroy();
        const code = String(e.code ?? '');
        reject(CERTIFICATE_CODES.test(code) ? new TlsCertificateError(where, code, e.message) : e);
      };
      socket.once('error', failed);
      socket.once('secureConnect', () => {
        socket.off('error', failed);
        socket.setNoDelay(true);
        socket.on('error', (e) => this.opts.log.warn({ error: describeError(e) }, 'sip tls socket error'));
        readSipMessages(socket, this.opts.log, (m) => this.receive(markReceived(m, { address: socket.remoteAddress ?? '', port: socket.remotePort ?? 0 })));
        socket.on('close', () => {
          if (this.socket !== socket) return;
          this.socket = null;
          if (!this.closing) {
            this.opts.log.warn({ server: this.opts.server }, 'sip tls connection lost');
            this.setState(TransportState.Disconnected, new Error('connection lost'));
          }
        });
        resolve(socket);
      });
    });
  }

  protected async shut(): Promise<void> {
    this.closing = true;
    const s = this.socket;
    this.socket = null;
    if (!s) return;
    await new Promise<void>((resolve) => {
      s.once('close', () => resolve());
      s.end();
      setTimeout(() => s.destroy(), 500).unref();
    });
  }

  protected async write(message: string): Promise<void> {
    // Requests and our responses alike go on the one connection (§18.2.2: the one the request came on).
    if (!this.socket && !this.closing) {
      this.opening ??= this.connect().finally(() => (this.opening = null));
      await this.opening;
    }
    const s = this.socket;
    if (!s) throw new Error('SIP TLS transport is not connected');
    await new Promise<void>((resolve, reject) => s.write(message, 'utf8', (e) => (e ? reject(e) : resolve())));
  }
}

let cas: string[] | null = null;
/** Bun's bundled roots and the host's (/etc/ssl/certs: a company CA installed with update-ca-certificates). */
function systemCas(): string[] {
  cas ??= [...new Set([...getCACertificates('default'), ...getCACertificates('system')])];
  return cas;
}
