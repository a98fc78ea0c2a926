/**
 * The SDP we speak (RFC 4566, offer/answer RFC 3264): one audio stream, G.711 both laws,
 * and RFC 4733 telephone-event for the keypad. No ICE, no SRTP: this is a PBX trunk.
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
}

function lines(local: LocalMedia, formats: string, extra: string[], direction: Direction): string {
  const ipv = local.address.includes(':') ? 'IP6' : 'IP4';
  return [
    'v=0',
    `o=voice-alert ${local.sessionId} ${local.version} IN ${ipv} ${local.address}`,
    's=voice-alert',
    `c=IN ${ipv} ${local.address}`,
    't=0 0',
    `m=audio ${local.port} RTP/AVP ${formats}`,
    ...extra,
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
  return lines(local, te !== null ? `${pt} ${te}` : `${pt}`, extra, mirror[remote.direction]);
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
  const m = /^m=audio (\d+) RTP\/AVP ([\d ]+)$/.exec(all[mIndex]!.trim());
  if (!address || !m) return { code: 'SDP_INVALID', reason: 'no connection address or bad m= line' };
  const port = Number(m[1]);
  // Port 0 rejects the stream (RFC 3264 §6); nothing could be sent to it.
  if (port < 1 || port > 65535) return { code: 'SDP_INVALID', reason: `audio stream rejected or unusable (port ${port})` };
  const formats = m[2]!.trim().split(/\s+/).map(Number);
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
  };
}
