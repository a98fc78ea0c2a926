import { connect, createServer, type Socket } from 'node:net';

/**
 * A TCP relay on 127.0.0.1 whose "cable" a test can cut: while cut, what either side sends is
 * held (as TCP keeps retransmitting it over a dead link) and nothing arrives; new connections
 * are taken but get no answer either. `restore()` delivers what was held, in order, and relays
 * again, as a link that comes back before TCP gave up. Nobody's socket is closed by the cut:
 * the appliance behind it sees a database that went silent, not one that went away.
 */
export async function cuttableRelay(targetPort: number): Promise<{ port: number; cut(): void; restore(): void; close(): Promise<void> }> {
  let isCut = false;
  const sockets = new Set<Socket>();
  const pending: (() => void)[] = [];
  const forward = (to: Socket) => (d: Buffer) => {
    if (!isCut) return void to.write(d);
    pending.push(() => void to.write(d));
  };
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('data', forward(upstream)).on('error', end).on('close', end);
    upstream.on('data', forward(client)).on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as { port: number }).port,
    cut: () => void (isCut = true),
    restore() {
      isCut = false;
      for (const send of pending.splice(0)) send();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
