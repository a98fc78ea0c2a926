import type { Server } from 'bun';
import { describeError } from '../log';
import type { TlsResult } from '../tls';

/** What every listener is started with (serve-options.ts), minus the TLS material and handler. */
export interface ListenBase {
  hostname: string;
  port: number;
  maxRequestBodySize: number;
  development: boolean;
  error: () => Response;
}

export type FetchHandler = (request: Request, server: Server<undefined>) => Response | Promise<Response>;

/** The HTTPS side of the appliance: one address, a certificate that SIGHUP can replace. */
export interface HttpsListener {
  /** The server taking new connections now (a new one after each replace). */
  readonly server: Server<undefined>;
  /**
   * New connections get `pair` from now on; connections already open finish on the old
   * certificate. Replacements run one at a time, in call order. A pair Bun refuses is an
   * error value and the old certificate stays. Never rejects.
   */
  replace(pair: { cert: string; key: string }): Promise<TlsResult<void>>;
  /** Stops taking connections; requests in flight are answered first. */
  stop(): Promise<void>;
}

/**
 * How long the replaced server keeps its open connections before it stops. Meanwhile each of
 * its answers says `Connection: close`, so a keep-alive client's next request opens a new
 * connection (on the new certificate) instead of racing the stop on an idle one.
 */
export const DRAIN_MS = 500;

interface Generation {
  server: Server<undefined>;
  draining: boolean;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * Bun's `server.reload()` keeps the certificate it started with (measured on Bun 1.4.5). So a
 * replace starts a second server on the same address (`reusePort`: the kernel spreads new
 * connections over both), then drains and stops the old one: the address never stops
 * answering. One gap remains, Bun's: a connection the old server accepted but that has not
 * sent a byte yet when it stops is closed (docs/https.md "HTTPS", certificate renewal).
 */
export function startHttpsListener(o: {
  base: ListenBase;
  pair: { cert: string; key: string };
  fetch: FetchHandler;
  /** Told each server that takes over (the app's `server`, for requestIP). */
  onServer?: (server: Server<undefined>) => void;
  drainMs?: number;
}): HttpsListener {
  const drainMs = o.drainMs ?? DRAIN_MS;
  const serve = (port: number, pair: { cert: string; key: string }): Generation => {
    const generation: Generation = { server: undefined as unknown as Server<undefined>, draining: false };
    generation.server = Bun.serve({
      ...o.base,
      port,
      reusePort: true,
      idleTimeout: 30,
      tls: { cert: pair.cert, key: pair.key },
      fetch: (request, server) => (generation.draining ? closingAfter(o.fetch(request, server)) : o.fetch(request, server)),
    });
    return generation;
  };
  let current = serve(o.base.port, o.pair);
  o.onServer?.(current.server);
  const draining = new Set<Generation>();
  let stopped = false;
  let queue: Promise<unknown> = Promise.resolve();

  const swap = (pair: { cert: string; key: string }): TlsResult<void> => {
    if (stopped) return { ok: true, value: undefined };
    let next: Generation;
    try {
      // The port actually bound: the configuration may have said 0.
      next = serve(current.server.port!, pair);
    } catch (e) {
      return { ok: false, error: { code: 'TLS_BAD_CERTIFICATE', message: `Bun refused the certificate: ${describeError(e)}` } };
    }
    const old = current;
    current = next;
    o.onServer?.(next.server);
    old.draining = true;
    draining.add(old);
    old.timer = setTimeout(() => {
      draining.delete(old);
      void old.server.stop(false);
    }, drainMs);
    return { ok: true, value: undefined };
  };

  return {
    get server() {
      return current.server;
    },
    replace(pair) {
      const run = queue.then(() => swap(pair));
      queue = run;
      return run;
    },
    async stop() {
      stopped = true;
      const all = [current, ...draining];
      draining.clear();
      for (const g of all) clearTimeout(g.timer);
      await Promise.all(all.map((g) => g.server.stop(false)));
    },
  };
}

/** The answer with `Connection: close`: Bun then closes the connection once it is sent. */
async function closingAfter(answer: Response | Promise<Response>): Promise<Response> {
  const response = await answer;
  try {
    response.headers.set('connection', 'close');
    return response;
  } catch {
    // Immutable headers (Response.redirect and the like): the same answer, copied.
    const copy = new Response(response.body, response);
    copy.headers.set('connection', 'close');
    return copy;
  }
}
