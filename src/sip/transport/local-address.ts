import { createSocket } from 'node:dgram';

/**
 * The address to put in Via, Contact and SDP: `sip.public_address` when set (NAT), else
 * `sip.local_address`, else (bound to 0.0.0.0) the address the OS routes to the PBX
 * from, found with a connected UDP socket that sends nothing.
 */
export async function advertisedAddress(o: { publicAddress: string; localAddress: string; server: { host: string; port: number } }): Promise<string> {
  if (o.publicAddress) return o.publicAddress;
  if (!isWildcard(o.localAddress)) return o.localAddress;
  const s = createSocket(o.server.host.includes(':') ? 'udp6' : 'udp4');
  try {
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.connect(o.server.port, o.server.host, () => resolve());
    });
    return s.address().address;
  } finally {
    s.close();
  }
}

/** Bound to every address of its family: the OS picks the source address per packet. */
export function isWildcard(address: string): boolean {
  return address === '0.0.0.0' || address === '::';
}
