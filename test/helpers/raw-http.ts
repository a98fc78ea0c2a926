import { connect } from 'node:net';

export interface RawAnswer {
  /** The whole answer as received (status line, headers, body), or '' when the server closed without one. */
  raw: string;
  status: number | null;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends bytes exactly as given over one TCP connection and reads until the server closes
 * it (or `timeoutMs`): what fetch cannot do — no Host, a bad Host, HTTP/1.0, NUL bytes.
 * Ask for `Connection: close` (or use HTTP/1.0) in the request so the server ends it.
 * The request is written, not ended with it: Bun's server drops the answer of a handler that
 * awaits I/O (a PostgreSQL store) when the client half-closes first (measured, Bun 1.4.5).
 */
export function rawRequest(baseUrl: string, request: string | Uint8Array, timeoutMs = 5000): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => socket.write(request));
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' || e.code === 'EPIPE' ? undefined : reject(e)));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parse(Buffer.concat(chunks).toString('latin1')));
    });
  });
}

function parse(raw: string): RawAnswer {
  const end = raw.indexOf('\r\n\r\n');
  const head = end < 0 ? raw : raw.slice(0, end);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const m = /^HTTP\/\d\.\d (\d{3})/.exec(statusLine);
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(':');
    if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  const body = end < 0 ? '' : Buffer.from(raw.slice(end + 4), 'latin1').toString('utf8');
  return { raw, status: m ? Number(m[1]) : null, headers, body };
}
