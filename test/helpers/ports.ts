import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';

/**
 * A port free for both UDP and TCP on `host` (127.0.0.1, or ::1 for IPv6 tests), even (RTP
 * likes even), from the OS. Racy by nature: the caller binds it right away.
 */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const s = createSocket(host.includes(':') ? 'udp6' : 'udp4');
      s.once('error', reject);
      s.bind(0, host, () => {
        const p = s.address().port;
        s.close(() => resolve(p));
      });
    });
    if (port % 2 !== 0 || port > 65_000) continue;
    const tcpFree = await new Promise<boolean>((resolve) => {
      const srv = createServer();
      srv.once('error', () => resolve(false));
      srv.listen(port, host, () => srv.close(() => resolve(true)));
    });
    if (tcpFree) return port;
  }
}
