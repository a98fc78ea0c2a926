import { isIP } from 'node:net';

/**
 * RFC 3261 §18.2.1: the server transport notes on the top Via of a request where it really
 * came from, `received=<source address>`, when that is not the address the Via's sent-by
 * names (a host name, or another address). The user agent reads the source back
 * (`requestSource`: the voice desk answers only INVITEs from a trunk's address, ua/inbound.ts),
 * and the parameter travels back in our responses as the RFC expects. `rport` is left as
 * it is: responses already go to the source port (via-return.ts).
 */
export function markReceived(message: string, source: { address: string; port: number }): string {
  if (message.startsWith('SIP/2.0 ')) return message;
  const end = message.indexOf('\r\n\r\n');
  const head = end >= 0 ? message.slice(0, end) : message;
  const m = /\r\n(?:Via|v)[ \t]*:[ \t]*([^\r\n]*)/i.exec(head);
  if (!m) return message;
  const value = m[1]!;
  // Only the first value of the line (a line may list several, §7.3.1).
  const comma = value.indexOf(',');
  const top = comma >= 0 ? value.slice(0, comma) : value;
  const address = source.address.replace(/^::ffff:/, '');
  if (sentByHost(top) === address) return message;
  const marked = top.replace(/;\s*received=[^;,\s]*/i, '') + `;received=${address}`;
  const start = m.index + m[0].length - value.length;
  return message.slice(0, start) + marked + value.slice(top.length) + message.slice(start + value.length);
}

/**
 * Where a request came from, by its top Via: the `received` address markReceived put there,
 * else the sent-by host when it is an IP address (markReceived leaves a Via alone only when
 * that is the source). Null when neither says.
 */
export function requestSource(via: string | undefined): string | null {
  const top = (via ?? '').split(',')[0]!;
  const received = /;\s*received=([^;,\s]+)/i.exec(top)?.[1];
  if (received) return received;
  const host = sentByHost(top);
  return host && isIP(host) ? host : null;
}

/** The host of a Via value's sent-by, without brackets: `SIP/2.0/UDP [::1]:5060;…` → `::1`. */
function sentByHost(via: string): string | null {
  const m = /^\s*SIP\s*\/\s*2\.0\s*\/\s*[A-Z]+\s+(\[[^\]]+\]|[^;:\s]+)/i.exec(via);
  return m ? m[1]!.replace(/^\[|\]$/g, '') : null;
}
