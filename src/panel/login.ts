import type { Clock } from '../clock';
import type { PanelUser, Store } from '../store';
import { verifyPassword } from './passwords';

export interface LoginOptions {
  /** Failures per key within the window before logins from it are refused outright. */
  maxFailures: number;
  windowMs: number;
  /** Delay after the first failure; doubles per further failure, up to `delayMaxMs`. */
  delayMs: number;
  delayMaxMs: number;
}

export type LoginResult =
  | { ok: true; user: PanelUser }
  | { ok: false; code: 'INVALID_CREDENTIALS' }
  | { ok: false; code: 'TOO_MANY_ATTEMPTS'; retryAfterS: number };

export interface LoginService {
  /** Checks a login and password from `ip`, counting failures per address and per name. */
  login(login: string, password: string, ip: string): Promise<LoginResult>;
  prune(): Promise<number>;
}

/** The wait before answering after `failures` earlier failures: 0, d, 2d, 4d, … capped. */
export function loginDelayMs(failures: number, o: Pick<LoginOptions, 'delayMs' | 'delayMaxMs'>): number {
  if (failures <= 0) return 0;
  return Math.min(o.delayMaxMs, o.delayMs * 2 ** Math.min(failures - 1, 30));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Two counters per attempt, so that neither guessing many passwords for one name nor
 * trying one password against many names from one address goes fast. Every attempt,
 * the right password included, waits out the delay earned so far: slowing only the
 * failures would tell an attacker which guess was right before the wait.
 */
export function createLoginService(store: Store, clock: Clock, o: LoginOptions, wait = sleep): LoginService {
  return {
    async login(login, password, ip) {
      const keys = [`ip:${ip}`, `login:${login.trim().toLowerCase()}`];
      const since = clock() - o.windowMs;
      const worst = Math.max(0, ...keys.map((k) => store.loginFailures.get(k, since)?.failures ?? 0));
      if (worst >= o.maxFailures) {
        const firsts = keys.map((k) => store.loginFailures.get(k, since)).filter((f) => f && f.failures >= o.maxFailures);
        const until = Math.max(...firsts.map((f) => f!.firstAt + o.windowMs));
        return { ok: false, code: 'TOO_MANY_ATTEMPTS', retryAfterS: Math.max(1, Math.ceil((until - clock()) / 1000)) };
      }
      await wait(loginDelayMs(worst, o));
      const user = store.panelUsers.findByLogin(login.trim());
      const good = await verifyPassword(password, user?.passwordHash ?? null);
      if (good && user) {
        // Only the name's counter: a success must not wipe an address's record of guesses at other names.
        await store.writes.run(() => store.loginFailures.clear(keys[1]!));
        return { ok: true, user };
      }
      await store.writes.run(() => keys.forEach((k) => store.loginFailures.add(k, clock(), clock() - o.windowMs)));
      return { ok: false, code: 'INVALID_CREDENTIALS' };
    },
    prune() {
      return store.writes.run(() => store.loginFailures.prune(clock() - o.windowMs));
    },
  };
}
