import { connect, type Socket } from 'node:net';
import { isWildcard } from './local-address';
import { markReceived } from './received-param';
import { createResponseRoutes } from './response-routes';
import { listenTcp, readSipMessages, type TcpListener } from './tcp-listener';
import { TransportState } from './sip-js';
import { SipTransportBase } from './transport-base';
import { describeError } from '../../log';

/**
 * SIP over TCP (RFC 3261 §18): requests go on one connection we open to the PBX, framed by
 * Content-Length. We also listen on sip.local_address:sip.local_port, the port Via and
 * Contact name, because the PBX may open a connection of its own towards us (§18.2.2:
 * responses after ours dropped; in-dialog requests to our Contact, §12.2). A response goes
 * back on the connection its request came in on.
 *
 * This transport never retries on its own (CONVENTIONS: retry in one place). Opening is one
 * connect attempt: a refused or unreachable PBX rejects connect(), so the trunk's start
 * fails and its supervisor (src/calls/index.ts `createTelephony`) tries again with backoff.
 * A PBX connection lost later is reported (state Disconnected, sip.js fails the
 * transactions in flight) and the next message we send opens one new connection, once;
 * if that fails too, send() rejects and that call ends NETWORK for the call lifecycle to
 * judge. The listener stays up meanwhile: Contact, sent in every dialog, names its port.
 */
export class TcpTransport extends SipTransportBase {
  readonly protocol = 'TCP';
  private socket: Socket | null = null;
  private listener: TcpListener | null = null;
  private readonly routes = createResponseRoutes<Socket>({ t1Ms: this.opts.t1Ms });
  private opening: Promise<void> | null = null;
  private closing = false;

  /** The listening port: the outgoing connection's own port is ephemeral and nobody listens there. */
  localPort(): number {
    return this.listener?.port() ?? this.opts.localPort;
  }

  protected reliable(): boolean {
    return true;
  }

  protected async open(): Promise<void> {
    this.closing = false;
    const firstOpen = !this.listener;
    this.listener ??= await listenTcp({
      host: this.opts.localAddress,
      port: this.opts.localPort,
      log: this.opts.log,
      onMessage: (m, socket) => {
        this.routes.requestArrived(m, socket);
        this.receive(markReceived(m, { address: socket.remoteAddress ?? '', port: socket.remotePort ?? 0 }));
      },
      onClosed: (socket) => this.routes.connectionClosed(socket),
    });
    try {
      this.socket = await this.dial();
    } catch (e) {
      this.opts.log.warn({ error: describeError(e), server: this.opts.server }, 'sip tcp connect failed');
      // A trunk that never came up must not keep the port: the next start binds it again.
      // A reconnect keeps it, since Contact (sent in every dialog) names it.
      if (firstOpen) await this.closeListener();
      throw e;
    }
  }

  private dial(): Promise<Socket> {
    return new Promise((resolve, reject) => {
      const socket = connect({
        host: this.opts.server.host,
        port: this.opts.server.port,
        localAddress: isWildcard(this.opts.localAddress) ? undefined : this.opts.localAddress,
      });
      socket.once('error', reject);
      socket.once('connect', () => {
        socket.off('error', reject);
        socket.setNoDelay(true);
        socket.on('error', (e) => this.opts.log.warn({ error: describeError(e) }, 'sip tcp socket error'));
        readSipMessages(socket, this.opts.log, (m) => {
          this.routes.requestArrived(m, socket);
          this.receive(markReceived(m, { address: socket.remoteAddress ?? '', port: socket.remotePort ?? 0 }));
        });
        socket.on('close', () => {
          this.routes.connectionClosed(socket);
          if (this.socket !== socket) return;
          this.socket = null;
          if (!this.closing) {
            this.opts.log.warn({ server: this.opts.server }, 'sip tcp connection lost');
            this.setState(TransportState.Disconnected, new Error('connection lost'));
          }
        });
        resolve(socket);
      });
    });
  }

  private async closeListener(): Promise<void> {
    const l = this.listener;
    this.listener = null;
    this.routes.close();
    await l?.close();
  }

  protected async shut(): Promise<void> {
    this.closing = true;
    const s = this.socket;
    this.socket = null;
    const ended = s
      ? new Promise<void>((resolve) => {
          s.once('close', () => resolve());
          s.end();
          setTimeout(() => s.destroy(), 500).unref();
        })
      : Promise.resolve();
    await Promise.all([ended, this.closeListener()]);
  }

  protected async write(message: string): Promise<void> {
    // §18.2.2: a response goes back on the connection its request arrived on, while it is open.
    const back = this.routes.routeFor(message);
    if (back && !back.destroyed && back.writable) return writeTo(back, message);
    if (!this.socket && !this.closing) {
      this.opening ??= this.connect().finally(() => (this.opening = null));
      await this.opening;
    }
    const s = this.socket;
    if (!s) throw new Error('SIP TCP transport is not connected');
    await writeTo(s, message);
  }
}

function writeTo(s: Socket, message: string): Promise<void> {
  return new Promise<void>((resolve, reject) => s.write(message, 'utf8', (e) => (e ? reject(e) : resolve())));
}
