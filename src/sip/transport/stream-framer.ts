import { contentLength } from './message-peek';

/**
 * Cuts a SIP byte stream (TCP) into messages by Content-Length, which is mandatory on
 * streams (RFC 3261 §18.3). CRLF keep-alives between messages (RFC 5626 §3.5.1) are skipped.
 * Content-Length counts bytes, so the buffer stays bytes until a message is whole.
 */
export interface StreamFramer {
  /** Feeds received bytes; returns the whole messages they completed, in order. */
  push(chunk: Uint8Array): string[];
  /** Non-null once the stream is unusable (a header block without Content-Length). */
  error(): string | null;
}

const HEADER_END = Buffer.from('\r\n\r\n');
const MAX_HEADER_BYTES = 64 * 1024;

export function createStreamFramer(): StreamFramer {
  let buf = Buffer.alloc(0);
  let failure: string | null = null;
  return {
    push(chunk) {
      if (failure) return [];
      buf = buf.length === 0 ? Buffer.from(chunk) : Buffer.concat([buf, chunk]);
      const out: string[] = [];
      for (;;) {
        let start = 0;
        while (start + 1 < buf.length && buf[start] === 13 && buf[start + 1] === 10) start += 2;
        if (start > 0) buf = buf.subarray(start);
        const end = buf.indexOf(HEADER_END);
        if (end < 0) {
          if (buf.length > MAX_HEADER_BYTES) failure = 'header block too long';
          break;
        }
        const head = buf.subarray(0, end).toString('utf8');
        const length = contentLength(head + '\r\n');
        if (length === null) {
          failure = 'message without Content-Length on a stream transport';
          break;
        }
        const total = end + 4 + length;
        if (buf.length < total) break;
        out.push(buf.subarray(0, total).toString('utf8'));
        buf = buf.subarray(total);
      }
      return out;
    },
    error: () => failure,
  };
}
