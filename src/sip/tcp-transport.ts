import { connect, type Socket } from 'node:net';
import { TransportState } from 'sip.js/lib/api/transport-state.js';
import { createStreamFramer } from './stream-framer';
import { SipTransportBase } from './transport-base';

const RECONNECT_DELAYS_MS = [0, 250, 1000, 4000];

/**
 * SIP over TCP (RFC 3261 §18): one connection to the PBX, framed by Content-Length. A lost
 * connection is reported to sip.js (transactions in flight fail) and re-opened on the next
 * send, with a short backoff, so the next call does not wait for a timer.
 */
export class TcpTransport extends SipTransportBase {
  readonly protocol = 'TCP';
  private socket: Socket | null = null;
  private opening: Promise<void> | null = null;
  private closing = false;

  localPort(): number {
    return this.socket?.localPort ?? this.opts.localPort;
  }

  protected reliable(): boolean {
    return true;
  }

  protected async open(): Promise<void> {
    this.closing = false;
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
    throw last;
  }

  private dial(): Promise<Socket> {
    return new Promise((resolve, reject) => {
      const socket = connect({
        host: this.opts.server.host,
        port: this.opts.server.port,
        localAddress: this.opts.localAddress === '0.0.0.0' ? undefined : this.opts.localAddress,
      });
      const framer = createStreamFramer();
      socket.once('error', reject);
      socket.once('connect', () => {
        socket.off('error', reject);
        socket.setNoDelay(true);
        socket.on('error', (e) => this.opts.log.warn({ err: e }, 'sip tcp socket error'));
        socket.on('data', (chunk: Buffer) => {
          for (const m of framer.push(chunk)) this.receive(m);
          if (framer.error()) {
            this.opts.log.warn({ reason: framer.error() }, 'sip tcp stream broken; reconnecting');
            socket.destroy();
          }
        });
        socket.on('close', () => {
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

  protected shut(): Promise<void> {
    this.closing = true;
    const s = this.socket;
    this.socket = null;
    if (!s) return Promise.resolve();
    return new Promise((resolve) => {
      s.once('close', () => resolve());
      s.end();
      setTimeout(() => s.destroy(), 500).unref();
    });
  }

  protected async write(message: string): Promise<void> {
    if (!this.socket && !this.closing) {
      this.opening ??= this.connect().finally(() => (this.opening = null));
      await this.opening;
    }
    const s = this.socket;
    if (!s) throw new Error('SIP TCP transport is not connected');
    await new Promise<void>((resolve, reject) => s.write(message, 'utf8', (e) => (e ? reject(e) : resolve())));
  }
}
