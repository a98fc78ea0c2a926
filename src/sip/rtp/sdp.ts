import { SRTP_MASTER_BYTES, SRTP_SUITE } from './srtp';

/**
 * The SDP we speak (RFC 4566, offer/answer RFC 3264): one audio stream, G.711 both laws,
 * and RFC 4733 telephone-event for the keypad. No ICE: this is a PBX trunk. On a trunk
 * with `srtp = "sdes"` the stream is RTP/SAVP keyed in the SDP itself (RFC 4568 SDES,
 * `a=crypto:` with AES_CM_128_HMAC_SHA1_80 only: srtp.ts).
 */
export type Codec = 'PCMU' | 'PCMA';
export const PAYLOAD_TYPE: Record<Codec, number> = { PCMU: 0, PCMA: 8 };
export const TELEPHONE_EVENT_PT = 101;

export type Direction = 'sendrecv' | 'sendonly' | 'recvonly' | 'inactive';

export interface LocalMedia {
  address: string;
  port: number;
  sessionId: number;
  version: number;
  /** Our SRTP master key and salt (30 bytes): the stream is RTP/SAVP with one a=crypto line. */
  srtpKey?: Uint8Array;
}

/** An `a=crypto:` line we can use (RFC 4568 §9.1): its tag and the master key || salt it names. */
export interface SdesCrypto {
  tag: number;
  key: Uint8Array;
}

export interface RemoteMedia {
  address: string;
  port: number;
  /** The first G.711 law in the peer's list: what we send. */
  codec: Codec;
  /** The payload type the peer's SDP gave that law (RFC 3264 §6.1: the answer keeps the offer's numbers). */
  payloadType: number;
  /** Payload type the peer uses for telephone-event, if any. */
  telephoneEventPt: number | null;
  direction: Direction;
  /** RTP/SAVP: the crypto attribute we use, the first one with our suite. Absent: plain RTP/AVP. */
  srtp?: SdesCrypto;
}

/** `a=crypto:<tag> AES_CM_128_HMAC_SHA1_80 inline:<base64 key||salt>` (RFC 4568 §9.1, §6.1). */
export const cryptoLine = (tag: number, key: Uint8Array) => `a=crypto:${tag} ${SRTP_SUITE} inline:${Buffer.from(key).toString('base64')}`;

function lines(local: LocalMedia, formats: string, extra: string[], direction: Direction, cryptoTag = 1): string {
  const ipv = local.address.includes(':') ? 'IP6' : 'IP4';
  return [
    'v=0',
    `o=voice-alert ${local.sessionId} ${local.version} IN ${ipv} ${local.address}`,
    's=voice-alert',
    `c=IN ${ipv} ${local.address}`,
    't=0 0',
    `m=audio ${local.port} ${local.srtpKey ? 'RTP/SAVP' : 'RTP/AVP'} ${formats}`,
    ...extra,
    ...(local.srtpKey ? [cryptoLine(cryptoTag, local.srtpKey)] : []),
    'a=ptime:20',
    `a=${direction}`,
    '',
  ].join('\r\n');
}

export function offer(local: LocalMedia): string {
  return lines(
    local,
    `0 8 ${TELEPHONE_EVENT_PT}`,
    ['a=rtpmap:0 PCMU/8000', 'a=rtpmap:8 PCMA/8000', `a=rtpmap:${TELEPHONE_EVENT_PT} telephone-event/8000`, `a=fmtp:${TELEPHONE_EVENT_PT} 0-16`],
    'sendrecv',
  );
}

/**
 * Our answer to the peer's offer (re-INVITE or UPDATE: hold, direct media, a codec change):
 * only what the offer holds, in its payload type numbers (RFC 3264 §6.1), the law the offer
 * prefers, and the mirrored direction (§8.4).
 */
export function answer(local: LocalMedia, remote: RemoteMedia): string {
  const pt = remote.payloadType;
  const te = remote.telephoneEventPt;
  const mirror: Record<Direction, Direction> = { sendrecv: 'sendrecv', sendonly: 'recvonly', recvonly: 'sendonly', inactive: 'inactive' };
  const extra = [`a=rtpmap:${pt} ${remote.codec}/8000`];
  if (te !== null) extra.push(`a=rtpmap:${te} telephone-event/8000`, `a=fmtp:${te} 0-16`);
  // RFC 4568 §7.1.2: the answer's crypto line carries the tag of the offer's line it accepts.
  return lines(local, te !== null ? `${pt} ${te}` : `${pt}`, extra, mirror[remote.direction], remote.srtp?.tag);
}

export type SdpError = { code: 'SDP_INVALID' | 'SDP_NO_COMMON_CODEC'; reason: string };

/** Reads the peer's audio stream; an error value when there is none we can send. */
export function parseRemote(sdp: string): RemoteMedia | SdpError {
  const all = sdp.split(/\r?\n/);
  const mIndex = all.findIndex((l) => l.startsWith('m=audio '));
  if (mIndex < 0) return { code: 'SDP_INVALID', reason: 'no audio stream' };
  const session = all.slice(0, mIndex);
  const media = all.slice(mIndex + 1);
  const nextM = media.findIndex((l) => l.startsWith('m='));
  const mediaLines = nextM >= 0 ? media.slice(0, nextM) : media;
  const conn = (ls: string[]) => ls.find((l) => l.startsWith('c='))?.split(' ')[2];
  const address = conn(mediaLines) ?? conn(session);
  const m = /^m=audio (\d+) RTP\/(S?AVP) ([\d ]+)$/.exec(all[mIndex]!.trim());
  if (!address || !m) return { code: 'SDP_INVALID', reason: 'no connection address or bad m= line' };
  const port = Number(m[1]);
  // Port 0 rejects the stream (RFC 3264 §6); nothing could be sent to it.
  if (port < 1 || port > 65535) return { code: 'SDP_INVALID', reason: `audio stream rejected or unusable (port ${port})` };
  let srtp: SdesCrypto | undefined;
  if (m[2] === 'SAVP') {
    srtp = mediaLines.map(parseCrypto).find((c): c is SdesCrypto => c !== null);
    if (!srtp) return { code: 'SDP_INVALID', reason: `RTP/SAVP without an a=crypto line we support (${SRTP_SUITE}, no MKI)` };
  }
  const formats = m[3]!.trim().split(/\s+/).map(Number);
  const rtpmap = new Map<number, string>();
  for (const l of mediaLines) {
    const r = /^a=rtpmap:(\d+) ([^/\s]+)\//.exec(l);
    if (r) rtpmap.set(Number(r[1]), r[2]!.toLowerCase());
  }
  const name = (pt: number) => rtpmap.get(pt) ?? (pt === 0 ? 'pcmu' : pt === 8 ? 'pcma' : '');
  const g711 = formats.find((pt) => name(pt) === 'pcmu' || name(pt) === 'pcma');
  if (g711 === undefined) return { code: 'SDP_NO_COMMON_CODEC', reason: `offered ${formats.join(' ')}` };
  const te = formats.find((pt) => name(pt) === 'telephone-event');
  const dirLine = [...mediaLines, ...session].find((l) => /^a=(sendrecv|sendonly|recvonly|inactive)$/.test(l.trim()));
  return {
    address,
    port,
    codec: name(g711) === 'pcmu' ? 'PCMU' : 'PCMA',
    payloadType: g711,
    telephoneEventPt: te ?? null,
    direction: (dirLine?.trim().slice(2) as Direction) ?? 'sendrecv',
    ...(srtp ? { srtp } : {}),
  };
}

/**
 * One `a=crypto:` line (RFC 4568 §9.1) if it is ours to use: our suite, one inline key of
 * 30 bytes, no MKI (`|1:4`) and no session parameters (UNENCRYPTED_SRTP, KDR …) we would
 * have to honour. A lifetime (`|2^31`) is accepted: we rekey at every call.
 */
export function parseCrypto(line: string): SdesCrypto | null {
  const m = /^a=crypto:(\d{1,9}) (\S+) inline:([A-Za-z0-9+/=]+)((?:\|[^|\s;]+)*)\s*(.*)$/.exec(line.trim());
  if (!m || m[2] !== SRTP_SUITE || m[5] !== '') return null;
  if (m[4]!.split('|').some((p) => p.includes(':'))) return null; // an MKI
  const key = Buffer.from(m[3]!, 'base64');
  if (key.length !== SRTP_MASTER_BYTES) return null;
  return { tag: Number(m[1]), key: new Uint8Array(key) };
}
