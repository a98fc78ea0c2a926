import { isAbsolute, resolve } from 'node:path';
import { MIN_PASSWORD_LENGTH } from '../panel';
import type { Store } from '../store';

export interface FirstStartOptions {
  /** The appliance's base URL (config/public-url.ts). */
  baseUrl: string;
  /** `--config` as given to `serve`, if any: the command printed must read the same file. */
  configPath?: string;
  /** store.path and store.url: a relative SQLite path is read from the working folder. */
  store: { path: string; url: string };
  /** The running executable (a compiled binary is its own process.execPath). */
  executable?: string;
  cwd?: string;
}

/**
 * The start banner while no administrator exists (docs/operations.md "First start"): where the
 * panel is and the one command that makes the first administrator, printed on every start
 * until one exists (a lost first banner is not a dead end).
 *
 * Decided against a one-time set-up link as PocketBase prints
 * (pocketbase apis/installer.go: a 30-minute superuser token in the URL, its fallback being
 * "You can create your first superuser by running: <executable> superuser upsert EMAIL PASS"):
 * under systemd the banner lands in the journal, which every member of `adm` and
 * `systemd-journal` reads, and a link there would let any of them become administrator. The
 * command needs what administering the appliance needs anyway: the right to read its
 * configuration and write its database. So we print PocketBase's fallback, made exact: the
 * executable's absolute path, the same --config, and the folder a relative database is in.
 */
export async function firstStartBanner(store: Store, o: FirstStartOptions): Promise<string | null> {
  if (await store.panelUsers.hasAdmin()) return null;
  const cwd = o.cwd ?? process.cwd();
  const executable = o.executable ?? process.execPath;
  const config = o.configPath ? ` --config ${shellQuote(resolve(cwd, o.configPath))}` : '';
  // A relative SQLite path is opened from the working folder: from any other folder the command
  // would make a second, empty database (issue 49), so the line says where to run it.
  const relative = o.store.url === '' && !isAbsolute(o.store.path);
  const cd = relative ? `cd ${shellQuote(cwd)} && ` : '';
  return [
    '',
    `Panel: ${o.baseUrl}/panel`,
    'No administrator yet. Create the first one on this machine:',
    `  ${cd}${shellQuote(executable)}${config} admin create --username admin --password-stdin`,
    `type the password (at least ${MIN_PASSWORD_LENGTH} characters), Enter, then Ctrl-D; or pipe it in. Then log in`,
    'to the panel as admin. This note shows on every start until an administrator exists.',
    '',
  ].join('\n');
}

/** Quoted for a POSIX shell only when it needs to be, so the usual path reads plainly. */
function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
