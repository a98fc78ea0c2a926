/**
 * Just enough reading of raw SIP text for the transport layer (RFC 3261 §7, §18): the
 * start line, the top Via branch, CSeq and Call-ID. Full parsing stays in sip.js; this
 * only keys retransmissions and matches responses to requests.
 */
export interface Peek {
  kind: 'request' | 'response';
  /** Request method, or the CSeq method of a response. */
  method: string;
  /** Response status; 0 for a request. */
  status: number;
  branch: string;
  callId: string;
  cseq: number;
}

const COMPACT: Record<string, string> = { v: 'via', i: 'call-id', l: 'content-length' };

/** The value of the first header named `name` (long or compact form, §7.3.3), or null. */
export function headerValue(head: string, name: string): string | null {
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    let key = line.slice(0, colon).trim().toLowerCase();
    key = COMPACT[key] ?? key;
    if (key === name) return line.slice(colon + 1).trim();
  }
  return null;
}

export function peek(message: string): Peek | null {
  const end = message.indexOf('\r\n\r\n');
  const head = end >= 0 ? message.slice(0, end) : message;
  const first = head.slice(0, head.indexOf('\r\n'));
  const via = headerValue(head, 'via');
  const cseqText = headerValue(head, 'cseq');
  const callId = headerValue(head, 'call-id');
  if (!via || !cseqText || !callId) return null;
  const branch = /;\s*branch=([^;,\s]+)/i.exec(via)?.[1] ?? '';
  const cseq = /^(\d+)\s+(\S+)/.exec(cseqText);
  if (!cseq) return null;
  const response = /^SIP\/2\.0\s+(\d{3})\b/.exec(first);
  if (response) {
    return { kind: 'response', method: cseq[2]!, status: Number(response[1]), branch, callId, cseq: Number(cseq[1]) };
  }
  const request = /^([A-Z]+)\s+\S+\s+SIP\/2\.0$/.exec(first);
  if (!request) return null;
  return { kind: 'request', method: request[1]!, status: 0, branch, callId, cseq: Number(cseq[1]) };
}

/** A Via sent-by host: an IPv6 reference in brackets (RFC 3261 §25.1) or a name/IPv4 address. */
const SENT_BY_HOST = String.raw`(?:\[[0-9A-Fa-f:.]+\]|[^;:\s\[\]]+)`;
/** The first Via header line (long or compact form, §7.3.3); only the top Via is ever ours. */
const FIRST_VIA = /^(?:Via|v):[^\r\n]*/im;
const isResponse = (message: string) => message.startsWith('SIP/2.0 ');
/** `Via: SIP/2.0/UDP host` with nothing after the host but parameters. */
const SENT_BY_NO_PORT = new RegExp(String.raw`^((?:Via|v):\s*SIP\/2\.0\/[A-Z]+\s+${SENT_BY_HOST})(?=\s*;|\s*$)`, 'i');
const SENT_BY_PORT = new RegExp(String.raw`^((?:Via|v):\s*SIP\/2\.0\/[A-Z]+\s+${SENT_BY_HOST}):\d+`, 'i');

function rewriteTopVia(message: string, edit: (line: string) => string): string {
  const m = FIRST_VIA.exec(message);
  if (!m) return message;
  return message.slice(0, m.index) + edit(m[0]) + message.slice(m.index + m[0].length);
}

/**
 * sip.js writes `Via: SIP/2.0/UDP host;branch=…;rport` (forceRport) with no port. On the
 * wire the sent-by of our requests must carry our port so a PBX without rport (RFC 3581)
 * still answers the socket we listen on (§18.2.1). IPv6 keeps its brackets: `[::1]:5060`.
 * Responses are left alone: their top Via is the requester's, copied as it came (§8.2.6.2).
 */
export function addViaPort(message: string, port: number): string {
  if (isResponse(message)) return message;
  return rewriteTopVia(message, (line) => line.replace(SENT_BY_NO_PORT, `$1:${port}`));
}

/**
 * The reverse for responses handed to sip.js: it drops any response whose Via sent-by
 * carries a port (its own §18.1.2 check compares against the host alone). Requests keep
 * the sender's port, so our answer copies their Via unchanged (§8.2.6.2).
 */
export function stripViaPort(message: string): string {
  if (!isResponse(message)) return message;
  return rewriteTopVia(message, (line) => line.replace(SENT_BY_PORT, '$1'));
}

/** sip.js appends `;ob` (RFC 5626 outbound) to Contact; we are not an outbound client. */
export function dropContactOb(message: string): string {
  return message.replace(/^(Contact: <[^>\r\n]*?);ob>/im, '$1>');
}

/**
 * sip.js lists `outbound` first in every Supported (its own "TODO: is this really
 * supported?"); we are no RFC 5626 client (no flows, no keep-alives), so it is taken out and
 * the PBX sees what we do support: `Supported: 100rel, timer`. A line left empty goes.
 */
export function dropOutboundTag(message: string): string {
  return message.replace(/^Supported:([^\r\n]*)\r\n/im, (line, tags: string) => {
    const kept = tags
      .split(',')
      .map((t) => t.trim())
      .filter((t) => t !== '' && t.toLowerCase() !== 'outbound');
    return kept.length === 0 ? '' : `Supported: ${kept.join(', ')}\r\n`;
  });
}

/** Content-Length of a header block, or null when absent (required on streams, §18.3). */
export function contentLength(head: string): number | null {
  const v = headerValue(head, 'content-length');
  if (v === null) return null;
  const n = Number(v);
  return Number.isInteger(n) && n >= 0 ? n : null;
}
