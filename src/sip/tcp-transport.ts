import { connect, type Socket } from 'node:net';
import { TransportState } from 'sip.js/lib/api/transport-state.js';
import { isWildcard } from './local-address';
import { createResponseRoutes } from './response-routes';
import { listenTcp, readSipMessages, type TcpListener } from './tcp-listener';
import { SipTransportBase } from './transport-base';

const RECONNECT_DELAYS_MS = [0, 250, 1000, 4000];

/**
 * SIP over TCP (RFC 3261 §18): requests go on one connection we open to the PBX, framed by
 * Content-Length. We also listen on sip.local_address:sip.local_port, the port Via and
 * Contact name, because the PBX may open a connection of its own towards us (§18.2.2:
 * responses after ours dropped; in-dialog requests to our Contact, §12.2). A response goes
 * back on the connection its request came in on. A lost PBX connection is reported to sip.js
 * (transactions in flight fail) and re-opened on the next send, with a short backoff, so the
 * next call does not wait for a timer; the listener stays up meanwhile.
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
        this.receive(m);
      },
      onClosed: (socket) => this.routes.connectionClosed(socket),
    });
    let last: unknown;
    for (const delay of RECONNECT_DELAYS_MS) {
      if (delay) await new Promise((r) => setTimeout(r, delay));
      try {
        this.socket = await this.dial();
        return;
      } catch (e) {
        last = e;
        this.opts.log.warn({ err: e, server: this.opts.server }, 'sip tcp connect failed');
      }
    }
    // A trunk that never came up must not keep the port: the next start binds it again.
    // A reconnect keeps it, since Contact (sent in every dialog) names it.
    if (firstOpen) await this.closeListener();
    throw last;
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
        socket.on('error', (e) => this.opts.log.warn({ err: e }, 'sip tcp socket error'));
        readSipMessages(socket, this.opts.log, (m) => {
          this.routes.requestArrived(m, socket);
          this.receive(m);
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
