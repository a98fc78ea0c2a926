import { createSocket, type Socket } from 'node:dgram';

/**
 * Even ports from `sip.rtp_ports` (RTP even, RTCP the odd one above: RFC 3550 §11). A port
 * another program holds is skipped; a released port goes to the back so a late packet of
 * the last call does not land in the next one.
 */
export interface PortPool {
  /** A UDP socket bound to a free even port, or an error value when the range is used up. */
  take(): Promise<{ socket: Socket; port: number } | { code: 'RTP_PORTS_EXHAUSTED' }>;
  give(port: number): void;
}

export function createPortPool(address: string, low: number, high: number): PortPool {
  const free: number[] = [];
  for (let p = low + (low % 2); p <= high; p += 2) free.push(p);
  const bind = (port: number) =>
    new Promise<Socket | null>((resolve) => {
      const s = createSocket({ type: address.includes(':') ? 'udp6' : 'udp4' });
      s.once('error', () => {
        s.close();
        resolve(null);
      });
      s.bind(port, address, () => {
        s.removeAllListeners('error');
        resolve(s);
      });
    });
  return {
    async take() {
      for (let tries = free.length; tries > 0; tries--) {
        const port = free.shift()!;
        const socket = await bind(port);
        if (socket) return { socket, port };
        free.push(port);
      }
      return { code: 'RTP_PORTS_EXHAUSTED' };
    },
    give(port) {
      free.push(port);
    },
  };
}
