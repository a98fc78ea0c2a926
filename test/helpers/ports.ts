import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';

/**
 * A port free for both UDP and TCP on 127.0.0.1, even (RTP likes even), from the OS.
 * Racy by nature: the caller binds it right away.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const s = createSocket('udp4');
      s.once('error', reject);
      s.bind(0, '127.0.0.1', () => {
        const p = s.address().port;
        s.close(() => resolve(p));
      });
    });
    if (port % 2 !== 0 || port > 65_000) continue;
    const tcpFree = await new Promise<boolean>((resolve) => {
      const srv = createServer();
      srv.once('error', () => resolve(false));
      srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
    });
    if (tcpFree) return port;
  }
}
