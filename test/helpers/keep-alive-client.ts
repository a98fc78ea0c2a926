import { connect, type TLSSocket } from 'node:tls';

export interface LoopResult {
  answered: number;
  connections: number;
  failures: string[];
}

/**
 * GET `path` again and again over one keep-alive HTTPS connection, with no retry: a client
 * that does not hide what a server does to its connections. A new connection is opened only
 * after an answer said `Connection: close` or the server closed the connection while it was
 * idle. A connection that closes while a request waits for its answer, or an answer that is
 * not 200, is a failure.
 */
export async function keepAliveLoop(o: { host: string; port: number; ca: string; path: string; running: () => boolean }): Promise<LoopResult> {
  const result: LoopResult = { answered: 0, connections: 0, failures: [] };
  let socket: TLSSocket | null = null;
  while (o.running()) {
    if (!socket || socket.destroyed || socket.readableEnded) {
      socket?.destroy();
      try {
        socket = await open(o.host, o.port, o.ca);
        result.connections++;
      } catch (e) {
        result.failures.push(`connect: ${(e as Error).message}`);
        socket = null;
        continue;
      }
    }
    const answer = await exchange(socket, `GET ${o.path} HTTP/1.1\r\nHost: ${o.host}\r\n\r\n`);
    if (typeof answer === 'string') {
      result.failures.push(answer);
      socket.destroy();
      socket = null;
      continue;
    }
    if (answer.status === 200) result.answered++;
    else result.failures.push(`status ${answer.status}`);
    if (answer.close) {
      socket.end();
      socket = null;
    }
  }
  socket?.destroy();
  return result;
}

function open(host: string, port: number, ca: string): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const s = connect({ host, port, ca }, () => resolve(s));
    s.once('error', reject);
  });
}

/** One request, its whole answer (by Content-Length), or why none came. */
function exchange(socket: TLSSocket, request: string): Promise<{ status: number; close: boolean } | string> {
  return new Promise((resolve) => {
    let text = '';
    const done = (value: { status: number; close: boolean } | string) => {
      socket.off('data', onData);
      socket.off('close', onClose);
      socket.off('error', onError);
      resolve(value);
    };
    const onData = (d: Buffer) => {
      text += d.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = text.slice(0, end).toLowerCase();
      const length = Number(/\r\ncontent-length: *(\d+)/.exec(head)?.[1] ?? 0);
      if (text.length - end - 4 < length) return;
      done({ status: Number(head.slice(9, 12)), close: /\r\nconnection: *close/.test(head) });
    };
    const onClose = () => done(`connection closed before the answer (${text.length} bytes read)`);
    const onError = (e: Error) => done(`connection error before the answer: ${e.message}`);
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.once('error', onError);
    socket.write(request);
  });
}
