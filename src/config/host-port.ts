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
  return ipFamily(host) === 6 ? `[${host}]` : host;
}

// node:net's own expressions (Node's lib/internal/net.js; Bun's node:net has the same).
const v4Seg = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])';
const v4Str = `(?:${v4Seg}\\.){3}${v4Seg}`;
const v6Seg = '(?:[0-9a-fA-F]{1,4})';
const IPV4 = new RegExp(`^${v4Str}$`);
const IPV6 = new RegExp(
  '^(?:' +
    `(?:${v6Seg}:){7}(?:${v6Seg}|:)|` +
    `(?:${v6Seg}:){6}(?:${v4Str}|:${v6Seg}|:)|` +
    `(?:${v6Seg}:){5}(?::${v4Str}|(?::${v6Seg}){1,2}|:)|` +
    `(?:${v6Seg}:){4}(?:(?::${v6Seg}){0,1}:${v4Str}|(?::${v6Seg}){1,3}|:)|` +
    `(?:${v6Seg}:){3}(?:(?::${v6Seg}){0,2}:${v4Str}|(?::${v6Seg}){1,4}|:)|` +
    `(?:${v6Seg}:){2}(?:(?::${v6Seg}){0,3}:${v4Str}|(?::${v6Seg}){1,5}|:)|` +
    `(?:${v6Seg}:){1}(?:(?::${v6Seg}){0,4}:${v4Str}|(?::${v6Seg}){1,6}|:)|` +
    `(?::(?:(?::${v6Seg}){0,5}:${v4Str}|(?::${v6Seg}){1,7}|:))` +
    ')(?:%[0-9a-zA-Z-.:]{1,})?$',
);

/**
 * 6 for an IPv6 address, 4 for IPv4, else 0: node:net's isIP, by the same expressions. Not
 * node:net itself: every CLI command reads the configuration, which asks this of sip's
 * addresses, and loading node:net cost ~10 ms of a command's start (docs/development.md
 * "The suite's length"). host-port.test.ts holds it equal to isIP.
 */
export function ipFamily(host: string): 0 | 4 | 6 {
  return IPV4.test(host) ? 4 : IPV6.test(host) ? 6 : 0;
}
