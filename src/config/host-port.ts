import { isIP } from 'node:net';

export interface HostPort {
  host: string;
  port: number;
}

/** Parses `host:port` or `[v6]:port`; null when it is neither. */
export function parseHostPort(value: string): HostPort | null {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\[\]]+)):(\d{1,5})$/.exec(value.trim());
  if (!m) return null;
  const port = Number(m[3]);
  if (port > 65535) return null;
  return { host: (m[1] ?? m[2])!, port };
}

/**
 * `value` with `port` added when it names a host alone (`pbx.lan`, `192.0.2.10`,
 * `[2001:db8::1]`); anything else as it is (already with a port, or not an address at all,
 * which parseHostPort then refuses).
 */
export function withDefaultPort(value: string, port: number): string {
  const v = value.trim();
  return HOST_ALONE.test(v) ? `${v}:${port}` : v;
}

/** A DNS name or IPv4 address, or a bracketed IPv6 address, with no port. */
const HOST_ALONE = /^(?:\[[0-9a-fA-F:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)$/;

/**
 * A host as it goes into a SIP URI or Via sent-by: an IPv6 address in brackets (RFC 3261
 * §25.1 IPv6reference), anything else (a name, IPv4, already bracketed) as it is.
 */
export function bracketHost(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host;
}
