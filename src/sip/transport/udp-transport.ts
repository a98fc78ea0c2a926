import { createSocket, type Socket } from 'node:dgram';
import { createResponseRoutes } from './response-routes';
import { SipTransportBase } from './transport-base';
import { markReceived } from './received-param';
import { viaReturnAddress } from './via-return';
import { describeError } from '../../log';

type Address = { host: string; port: number };

/**
 * SIP over UDP (RFC 3261 §18.1): one socket, bound once, sending requests to the PBX and
 * responses where their request's Via says (§18.2.2, RFC 3581: via-return.ts).
 */
export class UdpTransport extends SipTransportBase {
  readonly protocol = 'UDP';
  private socket: Socket | null = null;
  private readonly returns = createResponseRoutes<Address>({ t1Ms: this.opts.t1Ms });

  localPort(): number {
    return this.socket?.address().port ?? this.opts.localPort;
  }

  protected reliable(): boolean {
    return false;
  }

  protected open(): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = createSocket({ type: this.opts.server.host.includes(':') ? 'udp6' : 'udp4' });
      socket.once('error', reject);
      socket.on('message', (data, from) => {
        const message = data.toString('utf8');
        if (message.startsWith('SIP/2.0 ')) return this.receive(message);
        this.returns.requestArrived(message, viaReturnAddress(message, from));
        this.receive(markReceived(message, from));
      });
      socket.bind(this.opts.localPort, this.opts.localAddress, () => {
        socket.off('error', reject);
        // An ICMP error or similar on a datagram socket is no reason to stop: log it.
        socket.on('error', (e) => this.opts.log.warn({ error: describeError(e) }, 'sip udp socket error'));
        this.socket = socket;
        resolve();
      });
    });
  }

  protected shut(): Promise<void> {
    const s = this.socket;
    this.socket = null;
    this.returns.close();
    return new Promise((resolve) => (s ? s.close(() => resolve()) : resolve()));
  }

  protected write(message: string): Promise<void> {
    const s = this.socket;
    if (!s) return Promise.reject(new Error('SIP UDP transport is not connected'));
    const to = this.returns.routeFor(message) ?? this.opts.server;
    return new Promise((resolve, reject) => s.send(Buffer.from(message, 'utf8'), to.port, to.host, (e) => (e ? reject(e) : resolve())));
  }
}
