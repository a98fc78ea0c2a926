import { createServer, type Server, type Socket } from 'node:net';
import { describeError, type Logger } from '../../log';
import { createStreamFramer } from './stream-framer';

/**
 * Reads a SIP byte stream as whole messages (Content-Length framing, §18.3). A stream that
 * cannot be framed any more is destroyed: nothing after the broken message can be trusted.
 */
export function readSipMessages(socket: Socket, log: Logger, handle: (message: string) => void): void {
  const framer = createStreamFramer();
  socket.on('data', (chunk: Buffer) => {
    for (const m of framer.push(chunk)) handle(m);
    if (framer.error()) {
      log.warn({ error: framer.error(), peer: `${socket.remoteAddress}:${socket.remotePort}` }, 'sip tcp stream broken; closing it');
      socket.destroy();
    }
  });
}

/**
 * The TCP port our Via and Contact name (RFC 3261 §18.2.1, §18.2.2): a PBX that opens a
 * connection of its own towards us (the far end's BYE, a response after our connection
 * dropped) lands here. Messages from accepted connections come with the socket they came
 * on, so a response can go back on it. Every accepted connection closes with the listener.
 */
export interface TcpListener {
  port(): number;
  /** Stops listening and closes every accepted connection. */
  close(): Promise<void>;
}

export interface TcpListenerOptions {
  host: string;
  /** 0: the OS picks. */
  port: number;
  log: Logger;
  onMessage(message: string, socket: Socket): void;
  onClosed(socket: Socket): void;
  /** Accepted connections held at once; more are closed at once (default 64). */
  maxConnections?: number;
}

/** A PBX opens a handful; anything far beyond that is a scanner or a leak, not a trunk. */
const MAX_ACCEPTED = 64;

/** Resolves once listening; rejects when the address cannot be bound (e.g. the port is taken). */
export function listenTcp(o: TcpListenerOptions): Promise<TcpListener> {
  const accepted = new Set<Socket>();
  const max = o.maxConnections ?? MAX_ACCEPTED;
  const server: Server = createServer((socket) => {
    if (accepted.size >= max) {
      o.log.warn({ peer: `${socket.remoteAddress}:${socket.remotePort}`, max }, 'sip tcp: too many connections to our listener; closing the new one');
      socket.destroy();
      return;
    }
    accepted.add(socket);
    socket.setNoDelay(true);
    // A PBX that vanished without a FIN would otherwise hold this socket for ever.
    socket.setKeepAlive(true, 60_000);
    socket.on('error', (e) => o.log.warn({ error: describeError(e) }, 'sip tcp accepted connection error'));
    socket.on('close', () => {
      accepted.delete(socket);
      o.onClosed(socket);
    });
    readSipMessages(socket, o.log, (m) => o.onMessage(m, socket));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: o.host, port: o.port, exclusive: true }, () => {
      server.off('error', reject);
      server.on('error', (e) => o.log.warn({ error: describeError(e) }, 'sip tcp listener error'));
      const port = (server.address() as { port: number }).port;
      resolve({
        port: () => port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            // Written responses are flushed first (end); a peer that never closes is cut off.
            for (const s of accepted) {
              s.end();
              setTimeout(() => s.destroy(), 500).unref();
            }
          }),
      });
    });
  });
}
