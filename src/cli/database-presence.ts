import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Config } from '../config';

/**
 * What a command does when the SQLite file store.path names does not exist (issue 49: `sudo
 * voice-alert admin create` run outside the service's folder once made a second, empty database
 * and an administrator who could not log in):
 *
 *   - `create`: the commands a fresh install starts with (`account create`, `admin create`)
 *     make it, and say on stderr where, as an absolute path, so a wrong place is seen at once;
 *   - `require`: every other command refuses (exit 1), naming the absolute path it looked at.
 *
 * `serve` does not come here: it makes its database on the first start. PostgreSQL (store.url)
 * is a server that exists or not; its migrations make the schema.
 */
export type DatabasePresence = 'create' | 'require';

export type PresenceOutcome =
  | { ok: true; /** The line for stderr once the store has made the file. */ created: string | null }
  | { ok: false; message: string };

export function databasePresence(config: Config, presence: DatabasePresence): PresenceOutcome {
  if (config.store.url) return { ok: true, created: null };
  const path = resolve(config.store.path);
  if (existsSync(path)) return { ok: true, created: null };
  if (presence === 'create') return { ok: true, created: `voice-alert: created the database ${path}` };
  return {
    ok: false,
    message:
      `no database at ${path} (store.path): start the service once, or run this with the service's configuration ` +
      '(--config or VOICE_ALERT_CONFIG); `account create` and `admin create` make a new one',
  };
}
