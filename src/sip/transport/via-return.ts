import { headerValue } from './message-peek';

/**
 * Where the response to a request received over UDP goes (RFC 3261 §18.2.2, RFC 3581 §4):
 * to the address it came from ("received"), at the source port when the top Via carries
 * `rport`, else at the Via sent-by port (5060 when none). Not sip.server: a PBX cluster or
 * an Asterisk with several transports sends BYE or OPTIONS from another address or port
 * than the one we send to, and waits for the answer there.
 */
export function viaReturnAddress(message: string, source: { address: string; port: number }): { host: string; port: number } {
  const end = message.indexOf('\r\n\r\n');
  const via = headerValue(end >= 0 ? message.slice(0, end) : message, 'via') ?? '';
  // Only the first value of the top Via line (a line may list several, §7.3.1).
  const top = via.split(',')[0]!;
  if (/;\s*rport\b/i.test(top)) return { host: source.address, port: source.port };
  const sentBy = /^SIP\/2\.0\/[A-Z]+\s+(\[[^\]]+\]|[^;:\s]+)(?::(\d+))?/i.exec(top.trim());
  return { host: source.address, port: sentBy?.[2] ? Number(sentBy[2]) : 5060 };
}
