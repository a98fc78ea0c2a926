import { createSocket, type Socket } from 'node:dgram';
import { SipTransportBase } from './transport-base';

/** SIP over UDP (RFC 3261 §18.1): one socket, bound once, sending to the PBX. */
export class UdpTransport extends SipTransportBase {
  readonly protocol = 'UDP';
  private socket: Socket | null = null;

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
      socket.on('message', (data) => this.receive(data.toString('utf8')));
      socket.bind(this.opts.localPort, this.opts.localAddress, () => {
        socket.off('error', reject);
        // An ICMP error or similar on a datagram socket is no reason to stop: log it.
        socket.on('error', (e) => this.opts.log.warn({ err: e }, 'sip udp socket error'));
        this.socket = socket;
        resolve();
      });
    });
  }

  protected shut(): Promise<void> {
    const s = this.socket;
    this.socket = null;
    return new Promise((resolve) => (s ? s.close(() => resolve()) : resolve()));
  }

  protected write(message: string): Promise<void> {
    const s = this.socket;
    if (!s) return Promise.reject(new Error('SIP UDP transport is not connected'));
    return new Promise((resolve, reject) =>
      s.send(Buffer.from(message, 'utf8'), this.opts.server.port, this.opts.server.host, (e) => (e ? reject(e) : resolve())),
    );
  }
}
