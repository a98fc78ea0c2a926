import type { Clock } from '../clock';
import type { Logger } from '../log';

export interface Refusal {
  requestId: string;
  endpoint: string;
  address: string;
  status: number;
  code: string;
  accountId: string | null;
  /** Why, when the code alone hides it (a replayed signature answers `Invalid signature`). */
  reason?: string;
}

export interface RefusalLog {
  add(r: Refusal): void;
}

const MINUTE_MS = 60_000;
/** Distinct anonymous (address, endpoint, status) keys logged per minute; beyond it, silence until the next. */
const MAX_KEYS_PER_MINUTE = 10_000;

/**
 * One line per refused alert request, so `journalctl` shows why a tool's alerts fail
 * (issue 10 §10): status, code, endpoint, address, account when known. Never the body or a
 * key. A refusal with no account known (bad key, rate limited, malformed) is logged once per
 * address, endpoint, status and minute, like its API history row: a flood of them must not
 * fill the journal either (issue 10 §1).
 */
export function createRefusalLog(log: Logger, clock: Clock): RefusalLog {
  let minute = -1;
  let logged = new Set<string>();
  return {
    add(r) {
      const fields = { ...r, reason: r.reason ?? undefined };
      if (r.accountId !== null) {
        log.info(fields, 'alert refused');
        return;
      }
      const m = Math.floor(clock() / MINUTE_MS);
      if (m !== minute) {
        minute = m;
        logged = new Set();
      }
      const key = `${r.address}|${r.endpoint}|${r.status}`;
      if (logged.has(key) || logged.size >= MAX_KEYS_PER_MINUTE) return;
      logged.add(key);
      log.info({ ...fields, repeats: 'not logged again this minute' }, 'alert refused');
    },
  };
}
