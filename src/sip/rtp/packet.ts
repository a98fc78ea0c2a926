/**
 * RTP fixed header (RFC 3550 §5.1), version 2, no padding, extension or CSRCs:
 *
 *   V=2|P|X|CC |M|  PT   |  sequence number  |  timestamp  |  SSRC  | payload …
 */
export interface RtpHeader {
  payloadType: number;
  marker: boolean;
  sequence: number;
  timestamp: number;
  ssrc: number;
}

export const RTP_HEADER_BYTES = 12;

export function encodeRtp(h: RtpHeader, payload: Uint8Array): Buffer {
  const b = Buffer.allocUnsafe(RTP_HEADER_BYTES + payload.length);
  b[0] = 0x80;
  b[1] = (h.marker ? 0x80 : 0) | (h.payloadType & 0x7f);
  b.writeUInt16BE(h.sequence & 0xffff, 2);
  b.writeUInt32BE(h.timestamp >>> 0, 4);
  b.writeUInt32BE(h.ssrc >>> 0, 8);
  b.set(payload, RTP_HEADER_BYTES);
  return b;
}

/** Null when it is not RTP version 2 or too short; skips CSRCs and a header extension. */
export function decodeRtp(b: Uint8Array): (RtpHeader & { payload: Uint8Array }) | null {
  if (b.length < RTP_HEADER_BYTES || b[0]! >> 6 !== 2) return null;
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let offset = RTP_HEADER_BYTES + (b[0]! & 0x0f) * 4;
  if (b[0]! & 0x10) {
    if (b.length < offset + 4) return null;
    offset += 4 + v.getUint16(offset + 2) * 4;
  }
  let end = b.length;
  if (b[0]! & 0x20) end -= b[b.length - 1]!;
  if (offset > end) return null;
  return {
    marker: (b[1]! & 0x80) !== 0,
    payloadType: b[1]! & 0x7f,
    sequence: v.getUint16(2),
    timestamp: v.getUint32(4),
    ssrc: v.getUint32(8),
    payload: b.subarray(offset, end),
  };
}
