import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP relay to PostgreSQL on 127.0.0.1 that, once armed, holds back what the server answers
 * until the CommandComplete of `tag` ('C', then "COMMIT", "SELECT 1", …) and the ReadyForQuery
 * after it (the server committed: an autocommitted statement commits at its Sync) are among
 * it, then drops it all and cuts both sides: the server did it, the client never learns it (a
 * connection lost between the two, as in a failover).
 */
/** ReadyForQuery, idle: the server is done with everything before it. */
const READY = Buffer.from([0x5a, 0, 0, 0, 5, 0x49]);

export async function answerEatingRelay(targetPort: string | number, tag: string): Promise<{ port: number; armed: boolean; eaten: number; close(): void }> {
  const text = Buffer.from(`${tag}\0`);
  const done = Buffer.alloc(5 + text.length);
  done[0] = 0x43; // 'C': CommandComplete, its length (itself and the tag), the tag
  done.writeUInt32BE(4 + text.length, 1);
  text.copy(done, 5);
  const sockets = new Set<Socket>();
  const relay = { port: 0, armed: false, eaten: 0, close: () => undefined as void };
  const server: Server = createServer((client) => {
    const upstream = connect(Number(targetPort), '127.0.0.1');
    sockets.add(client).add(upstream);
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (d) => upstream.write(d));
    let held = Buffer.alloc(0);
    upstream.on('data', (d: Buffer) => {
      if (!relay.armed) return void client.write(d);
      held = Buffer.concat([held, d]);
      const at = held.indexOf(done);
      if (at >= 0 && held.indexOf(READY, at + done.length) >= 0) {
        relay.armed = false;
        relay.eaten++;
        cut();
      }
    });
    client.on('error', cut).on('close', cut);
    upstream.on('error', cut).on('close', cut);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  relay.port = (server.address() as { port: number }).port;
  relay.close = () => {
    for (const s of sockets) s.destroy();
    server.close();
  };
  return relay;
}
