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
