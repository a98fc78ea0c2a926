import type { SqlConnection } from '../connection';
import { DatabaseUnavailableError } from '../unavailable';
import { isConnectionLost, isTooSlow } from './errors';

/** How long to wait before trying a database that could not be reached again, at first and at most. */
const RECONNECT_PAUSE_MS = [25, 250] as const;

/** Pauses between tries at a database that went away (a restart takes a moment): doubling, bounded. */
export interface ReconnectPauses {
  /** Whether the next pause ends before `deadline` (performance.now() time). */
  fitBefore(deadline: number): boolean;
  /** Waits the next pause; the one after is longer, up to the bound. */
  sleep(): Promise<void>;
}

export function reconnectPauses(): ReconnectPauses {
  let pause: number = RECONNECT_PAUSE_MS[0];
  return {
    fitBefore: (deadline) => performance.now() + pause < deadline,
    async sleep() {
      await new Promise((r) => setTimeout(r, pause));
      pause = Math.min(pause * 2, RECONNECT_PAUSE_MS[1]);
    },
  };
}

/** Reads on the pool run again after a lost connection (they change nothing), within the time limit. */
export function retryingReader(pool: SqlConnection, timeoutMs: number): SqlConnection {
  const retrying = async <T>(read: () => Promise<T>): Promise<T> => {
    const deadline = performance.now() + timeoutMs;
    const pauses = reconnectPauses();
    for (;;) {
      try {
        return await withDeadline(read(), deadline);
      } catch (e) {
        if (!isConnectionLost(e) || !pauses.fitBefore(deadline)) throw unavailableIfSo(e, deadline, isConnectionLost(e));
        await pauses.sleep();
      }
    }
  };
  return {
    dialect: 'postgres',
    query(text) {
      const s = pool.query(text);
      return {
        run: (params) => retrying(() => s.run(params)),
        send: (params) => s.send(params),
        get: (params) => retrying(() => s.get(params)),
        all: (params) => retrying(() => s.all(params)),
        values: (params) => retrying(() => s.values(params)),
      };
    },
    exec: (text) => retrying(() => pool.exec(text)),
  };
}

/** The error a caller sees: DatabaseUnavailableError when the database was away or too slow, else the error itself. */
export function unavailableIfSo(e: unknown, deadline: number, lost = false): unknown {
  if (e instanceof DatabaseUnavailableError) return e;
  if (lost || isConnectionLost(e) || isTooSlow(e) || performance.now() >= deadline) {
    return new DatabaseUnavailableError((e as Error)?.message ?? String(e));
  }
  return e;
}

function withDeadline<T>(p: Promise<T>, deadline: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new DatabaseUnavailableError('no answer in time')), Math.max(0, deadline - performance.now()));
    p.then(
      (v) => (clearTimeout(t), resolve(v)),
      (e) => (clearTimeout(t), reject(e)),
    );
  });
}
