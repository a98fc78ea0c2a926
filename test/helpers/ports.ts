import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';

/** Below this the ports of well-known services (5432, 5060, 8080…) stay out of the draw. */
const LOWEST = 20_000;

/**
 * The kernel's ephemeral range (`ip_local_port_range`): every outgoing connection takes a port
 * from it. A test server that stops and starts again on the same port (a PostgreSQL restart, an
 * appliance after SIGKILL) must not live there: while it is down any connection on the machine
 * may take its port as its own (even one that dials the port itself: TCP's self-connect), and
 * the restart then fails with "Address already in use".
 */
export function ephemeralRange(text = readRange()): { low: number; high: number } {
  const [low, high] = text.trim().split(/\s+/).map(Number);
  return Number.isInteger(low) && Number.isInteger(high) ? { low: low!, high: high! } : { low: 32_768, high: 60_999 };
}

function readRange(): string {
  try {
    return readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8');
  } catch {
    return '';
  }
}

/**
 * A port free for both UDP and TCP on `host` (127.0.0.1, or ::1 for IPv6 tests), even (RTP
 * likes even), drawn from below the ephemeral range (see `ephemeralRange`); from the OS when
 * that range leaves no room below it. Racy by nature: the caller binds it right away.
 */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const { low } = ephemeralRange();
  const room = low - 2 - LOWEST; // the top candidate leaves room for the odd port above it
  for (;;) {
    const port = room > 1_000 ? LOWEST + 2 * Math.floor((Math.random() * room) / 2) : await osPort(host);
    if (port % 2 !== 0 || port > 65_000) continue;
    if ((await udpFree(port, host)) && (await tcpFree(port, host))) return port;
  }
}

function osPort(host: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const s = createSocket(host.includes(':') ? 'udp6' : 'udp4');
    s.once('error', reject);
    s.bind(0, host, () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
}

function udpFree(port: number, host: string): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const s = createSocket(host.includes(':') ? 'udp6' : 'udp4');
    s.once('error', () => resolve(false));
    s.bind(port, host, () => s.close(() => resolve(true)));
  });
}

function tcpFree(port: number, host: string): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, host, () => srv.close(() => resolve(true)));
  });
}

/**
 * Listens `server` (a net or tls server of this test process) on a port drawn as `freePort`
 * draws, and returns it. `freePort` then `listen` leaves a gap in which another process of the
 * suite (a peer, a cluster, another file's probe) may take the port; a server in this process
 * can close that gap: a draw already taken is drawn again. `port` binds that port only (a server
 * coming back where the appliance already points); its failure rejects instead of hanging.
 */
export async function listenFree(server: Server, o: { host?: string; port?: number } = {}): Promise<number> {
  const host = o.host ?? '127.0.0.1';
  for (let tries = 1; ; tries++) {
    const port = o.port ?? (await freePort(host));
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      return port;
    } catch (e) {
      if (o.port !== undefined || tries >= 5 || (e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
    }
  }
}
