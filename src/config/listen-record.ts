import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { publicBaseUrl, type PublicUrlConfig } from './public-url';

/**
 * The address `serve` actually listens on, kept in the data folder (beside the database, as
 * the speech cache and secret.key are) so that a CLI process prints URLs that reach the
 * server: `serve --listen 127.0.0.1:18080` is a flag the CLI never sees, and a port of 0 is
 * chosen by the kernel (issue 49: the feed URL said 8080 under --listen 18080).
 *
 * One line, the base URL as the server logged it (`http://127.0.0.1:18080`). Written at each
 * start, never removed: after a stop it still names where the server last listened, which is
 * where the next start listens unless the configuration changed. Each appliance on a shared
 * PostgreSQL store has its own data folder and so its own record.
 */
const FILE = 'listening.url';

export function listenRecordPath(storePath: string): string {
  return join(dirname(resolve(storePath)), FILE);
}

/** Written whole or not at all (rename), so a CLI never reads half a line. Throws on a folder it cannot write. */
export function recordListening(storePath: string, url: string): void {
  const path = listenRecordPath(storePath);
  writeFileSync(`${path}.tmp`, url + '\n');
  renameSync(`${path}.tmp`, path);
}

/** The recorded URL, or null when no server has started on this data folder (or it is unreadable). */
export function recordedListening(storePath: string): string | null {
  try {
    const url = readFileSync(listenRecordPath(storePath), 'utf8').trim();
    return /^https?:\/\/\S+$/.test(url) ? url : null;
  } catch {
    return null;
  }
}

/** The base URL a CLI process prints (public-url.ts's rule, with the address serve recorded). */
export function commandBaseUrl(config: PublicUrlConfig & { store: { path: string } }): string {
  return publicBaseUrl(config, recordedListening(config.store.path));
}
