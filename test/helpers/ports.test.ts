import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ephemeralRange, freePort, listenFree } from './ports';

describe('freePort', () => {
  it('draws even ports below the kernel ephemeral range, so a restarted server finds its port again', async () => {
    const { low } = ephemeralRange();
    for (let i = 0; i < 20; i++) {
      const port = await freePort();
      expect(port % 2).toBe(0);
      expect(port).toBeLessThan(low);
      expect(port).toBeGreaterThanOrEqual(20_000);
    }
  });

  it('returns a port a server can listen on at once', async () => {
    const port = await freePort();
    const srv = createServer();
    await new Promise<void>((resolve, reject) => {
      srv.once('error', reject);
      srv.listen(port, '127.0.0.1', resolve);
    });
    await new Promise<void>((resolve) => srv.close(() => resolve()));
  });

  it('reads the range from ip_local_port_range, and falls back to Linux defaults', () => {
    expect(ephemeralRange('32768\t60999\n')).toEqual({ low: 32_768, high: 60_999 });
    expect(ephemeralRange('')).toEqual({ low: 32_768, high: 60_999 });
  });

  it('listenFree: listens on a drawn port and says which; a given port already taken rejects at once', async () => {
    const srv = createServer();
    const port = await listenFree(srv);
    expect(srv.address()).toMatchObject({ port, address: '127.0.0.1' });
    expect(port).toBeGreaterThanOrEqual(20_000);
    const second = createServer();
    await expect(listenFree(second, { port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
    await new Promise<void>((resolve) => srv.close(() => resolve()));
  });
});
