import type { Clock } from '../clock';
import type { PanelUser, Store } from '../store';
import { createInFlight } from './in-flight';
import { verifyPassword } from './passwords';

export interface LoginOptions {
  /** Failures of one name from one address within the window before that pair is refused. */
  maxFailures: number;
  windowMs: number;
  /** Delay after the first failure; doubles per further failure, up to `delayMaxMs`. */
  delayMs: number;
  delayMaxMs: number;
  /** Password checks running at once from one address; more are refused at once. Default 2. */
  concurrentPerAddress?: number;
  /** Password checks running at once for one name, from anywhere. Default 4. */
  concurrentPerName?: number;
}

export type LoginResult =
  | { ok: true; user: PanelUser }
  | { ok: false; code: 'INVALID_CREDENTIALS' }
  | { ok: false; code: 'TOO_MANY_ATTEMPTS'; retryAfterS: number };

export interface LoginService {
  /** Checks a login and password from `ip`; see createLoginService for the limits. */
  login(login: string, password: string, ip: string): Promise<LoginResult>;
  prune(): Promise<number>;
}

/** The wait before answering after `failures` earlier failures: 0, d, 2d, 4d, … capped. */
export function loginDelayMs(failures: number, o: Pick<LoginOptions, 'delayMs' | 'delayMaxMs'>): number {
  if (failures <= 0) return 0;
  return Math.min(o.delayMaxMs, o.delayMs * 2 ** Math.min(failures - 1, 30));
}

// An address may spray one password over many names: it is refused after this many times
// the pair limit, so a person who mistyped their own name a few times is not caught by it.
const ADDRESS_FACTOR = 3;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Three counters per attempt, each reserved BEFORE the password is checked (one statement,
 * store/login-failures.ts), so guesses sent at once cannot all slip past one read:
 *
 *   pair  `name + address`  refused after `maxFailures`: the lock an attacker earns
 *   ip    `address`         refused after 3 × `maxFailures`: one address trying many names
 *   login `name`            never refused, only slowed (a back-off that doubles per
 *                           `maxFailures` failures): guesses from elsewhere cannot lock
 *                           the administrator out, only make every check of that name slower
 *
 * On top, checks running at the same time are limited per address and per name; a guess
 * beyond that is refused at once, before it is counted or checked. Every attempt, the right
 * password included, waits out the delay earned so far: slowing only the failures would
 * tell an attacker which guess was right before the wait.
 */
export function createLoginService(store: Store, clock: Clock, o: LoginOptions, wait = sleep): LoginService {
  const inFlight = createInFlight();
  const perAddress = o.concurrentPerAddress ?? 2;
  const perName = o.concurrentPerName ?? 4;

  /** Seconds until the counters that refused (those at their limit) leave the window. */
  const retryAfter = async (counters: { key: string; max: number }[]): Promise<number> => {
    const since = clock() - o.windowMs;
    const found = await Promise.all(counters.map((c) => store.loginFailures.get(c.key, since)));
    const firsts = found
      .filter((f, i) => f !== null && f.failures >= counters[i]!.max)
      .map((f) => f!.firstAt);
    const until = firsts.length ? Math.max(...firsts) + o.windowMs : clock() + 1000;
    return Math.max(1, Math.ceil((until - clock()) / 1000));
  };

  const check = async (name: string, password: string, ip: string): Promise<LoginResult> => {
    const pair = `pair:${name} ${ip}`;
    const address = `ip:${ip}`;
    const global = `login:${name}`;
    const limited = [
      { key: pair, max: o.maxFailures },
      { key: address, max: o.maxFailures * ADDRESS_FACTOR },
    ];
    const counts = await store.transaction((tx) =>
      tx.loginFailures.reserve([...limited, { key: global, max: null }], clock(), clock() - o.windowMs),
    );
    if (!counts) return { ok: false, code: 'TOO_MANY_ATTEMPTS', retryAfterS: await retryAfter(limited) };
    // Counts include this attempt: the failures before it are one fewer.
    const before = (k: string) => (counts.get(k) ?? 1) - 1;
    const slowGlobal = Math.floor(before(global) / o.maxFailures);
    const slowAddress = Math.floor(before(address) / ADDRESS_FACTOR);
    await wait(Math.max(loginDelayMs(before(pair), o), loginDelayMs(slowAddress, o), loginDelayMs(slowGlobal, o)));
    const user = await store.panelUsers.findByLogin(name);
    const good = await verifyPassword(password, user?.passwordHash ?? null);
    if (good && user) {
      // The reservation was no failure: give it back. The pair starts again; the address and
      // the name keep what others did (a success must not wipe a record of guesses).
      await store.transaction((tx) => tx.loginFailures.settle([pair], [address, global]));
      return { ok: true, user };
    }
    return { ok: false, code: 'INVALID_CREDENTIALS' };
  };

  return {
    async login(login, password, ip) {
      const name = login.trim().toLowerCase();
      const slots = inFlight.acquire([
        { key: `ip:${ip}`, limit: perAddress },
        { key: `login:${name}`, limit: perName },
      ]);
      if (!slots) return { ok: false, code: 'TOO_MANY_ATTEMPTS', retryAfterS: 1 };
      try {
        return await check(name, password, ip);
      } finally {
        slots.release();
      }
    },
    prune() {
      return store.transaction((tx) => tx.loginFailures.prune(clock() - o.windowMs));
    },
  };
}
