import { isIP } from 'node:net';
import { hostname, networkInterfaces, type NetworkInterfaceInfo } from 'node:os';

/** The subject alternative names of a self-signed certificate. */
export interface CertificateNames {
  dns: string[];
  ips: string[];
}

/**
 * What a self-signed certificate names (docs/https.md "HTTPS"): the host
 * name, every address `http.listen` binds (for 0.0.0.0 each IPv4 address of the machine, for
 * :: each address), and 127.0.0.1; `localhost` too, for a browser on the machine itself.
 * Link-local IPv6 addresses are left out: they only mean something with a zone (`%eth0`),
 * which a certificate cannot carry.
 */
export function selfSignedNames(
  listenHost: string,
  host: string = hostname(),
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces(),
): CertificateNames {
  const dns = new Set<string>();
  const ips = new Set<string>(['127.0.0.1']);
  if (host && isIP(host) === 0) dns.add(host.toLowerCase());
  dns.add('localhost');
  const all = Object.values(interfaces).flatMap((list) => list ?? []);
  if (listenHost === '0.0.0.0') {
    for (const a of all) if (a.family === 'IPv4') ips.add(a.address);
  } else if (listenHost === '::') {
    // Bun's [::] listener also takes IPv4 (dual stack).
    for (const a of all) if (!/^fe80:/i.test(a.address)) ips.add(a.address);
  } else if (isIP(listenHost)) {
    ips.add(listenHost);
  } else {
    dns.add(listenHost.toLowerCase());
  }
  return { dns: [...dns], ips: [...ips] };
}
