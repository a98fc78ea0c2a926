import { createSocket } from 'node:dgram';

/**
 * A UDP relay between our SIP port and a peer that drops chosen datagrams, to prove the
 * RFC 3261 §17 retransmission: `drop(text, n)` decides per message from us to the peer.
 */
export async function startLossyRelay(peerPort: number, drop: (message: string, index: number) => boolean) {
  const s = createSocket('udp4');
  let client: { address: string; port: number } | null = null;
  let index = 0;
  const dropped: string[] = [];
  s.on('message', (data, rinfo) => {
    if (rinfo.port === peerPort) {
      if (client) s.send(data, client.port, client.address);
      return;
    }
    client = { address: rinfo.address, port: rinfo.port };
    const text = data.toString('utf8');
    if (drop(text, index++)) {
      dropped.push(text);
      return;
    }
    s.send(data, peerPort, '127.0.0.1');
  });
  // Port 0: the kernel's pick, bound in the same step (a drawn port could be taken before the
  // bind); the relay never restarts, so the ephemeral range suits it (ports.ts ephemeralRange).
  await new Promise<void>((resolve, reject) => {
    s.once('error', reject);
    s.bind(0, '127.0.0.1', () => resolve());
  });
  const port = s.address().port;
  return { port, dropped, close: () => new Promise<void>((r) => s.close(() => r())) };
}
