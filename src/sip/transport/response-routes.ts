import { peek } from './message-peek';

/**
 * Which connection a response goes back on (RFC 3261 §18.2.2): the one its request came
 * in on. A request from the PBX that opened a new connection to our listener must be
 * answered there, not on our own connection to the PBX, which the PBX may not match to
 * the transaction (or which may be gone).
 *
 * Keyed by the request's top Via branch and method (a CANCEL shares its INVITE's branch,
 * §9.1). An entry is forgotten 64·T1 after the final response went out (long enough for
 * the client's Timer F/B window in which it might retransmit and expect an answer), 64·T1
 * after the request if nothing final ever went out, or at once when its connection closes.
 */
export interface ResponseRoutes<C> {
  /** A request arrived on `conn`. ACKs have no response and are not remembered. */
  requestArrived(message: string, conn: C): void;
  /** The connection for this outgoing response, or null: send it on the default one. */
  routeFor(message: string): C | null;
  /** `conn` closed: nothing can be sent on it any more. */
  connectionClosed(conn: C): void;
  /** Entries held (tests: nothing leaks). */
  size(): number;
  close(): void;
}

interface Route<C> {
  conn: C;
  forget: ReturnType<typeof setTimeout>;
}

export function createResponseRoutes<C>(o: { t1Ms: number }): ResponseRoutes<C> {
  const routes = new Map<string, Route<C>>();
  const holdMs = 64 * o.t1Ms;
  const forgetLater = (key: string) =>
    setTimeout(() => {
      routes.delete(key);
    }, holdMs);

  return {
    requestArrived(message, conn) {
      const p = peek(message);
      if (!p || p.kind !== 'request' || p.method === 'ACK' || !p.branch) return;
      const key = `${p.branch} ${p.method}`;
      const old = routes.get(key);
      if (old) clearTimeout(old.forget);
      // A retransmission on another connection (the first one dropped) moves the route.
      routes.set(key, { conn, forget: forgetLater(key) });
    },
    routeFor(message) {
      const p = peek(message);
      if (!p || p.kind !== 'response') return null;
      const key = `${p.branch} ${p.method}`;
      const route = routes.get(key);
      if (!route) return null;
      if (p.status >= 200) {
        clearTimeout(route.forget);
        route.forget = forgetLater(key);
      }
      return route.conn;
    },
    connectionClosed(conn) {
      for (const [key, route] of routes) {
        if (route.conn !== conn) continue;
        clearTimeout(route.forget);
        routes.delete(key);
      }
    },
    size: () => routes.size,
    close() {
      for (const route of routes.values()) clearTimeout(route.forget);
      routes.clear();
    },
  };
}
