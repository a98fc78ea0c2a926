import type { Command } from 'commander';
import { systemClock } from '../clock';
import { loadConfig, type Config } from '../config';
import { silentLogger } from '../log';
import type { Services } from '../services';
import { createStore, storeOptionsFrom, type Store } from '../store';
import { databasePresence, type DatabasePresence } from './database-presence';

/** A failure to report on stderr with this exit code (2: usage or configuration, 1: anything else). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** Deprecated keys are reported on stderr unless the caller (serve) logs them itself. */
export function configFrom(
  cmd: Command,
  flags: Record<string, unknown> = {},
  onDeprecated: (message: string) => void = (m) => process.stderr.write(`warning: ${m}\n`),
): Config {
  const { config } = cmd.optsWithGlobals() as { config?: string };
  return loadConfig({ path: config, flags, onDeprecated });
}

/**
 * PostgreSQL connections a command opens: it runs one unit of work at a time, and Bun's pool
 * connects all of its connections at the first query (a backend forked and authenticated for
 * each), which made a command on PostgreSQL take twice as long as on SQLite with store.pool_size's 10.
 */
const COMMAND_POOL_SIZE = 2;

/**
 * Opens the store for one command and closes it after, even on failure. A missing SQLite file is
 * refused unless `presence` is `create` (database-presence.ts: only what a fresh install starts with).
 */
export async function withStore<T>(
  cmd: Command,
  fn: (store: Store, config: Config) => T | Promise<T>,
  presence: DatabasePresence = 'require',
): Promise<T> {
  const config = configFrom(cmd);
  const present = databasePresence(config, presence);
  if (!present.ok) throw new CliError(present.message);
  const store = await createStore({ ...storeOptionsFrom(config), poolSize: COMMAND_POOL_SIZE, clock: systemClock, log: silentLogger() });
  if (present.created) process.stderr.write(present.created + '\n');
  try {
    return await fn(store, config);
  } finally {
    await store.close();
  }
}

/**
 * Opens the store and hands the registry (src/services.ts, the server's own services) to one
 * command. No dialer runs in a CLI process: the panel's test calls are refused (the CLI's
 * `test-call` dials its own), and nothing here wakes a dialer.
 */
export async function withServices<T>(
  cmd: Command,
  fn: (services: Services, store: Store, config: Config) => T | Promise<T>,
  presence: DatabasePresence = 'require',
): Promise<T> {
  // Loaded by the commands that use it (cli/index.ts loads only the command that runs).
  const { createServices } = await import('../services');
  return withStore(cmd, (store, config) => fn(createServices({ store, clock: systemClock, config }), store, config), presence);
}

/** With --json exactly one JSON document on stdout; otherwise the human text. */
export function print(json: boolean, value: unknown, human: () => string): void {
  process.stdout.write(json ? JSON.stringify(value) + '\n' : human() + '\n');
}

export function positiveInt(name: string) {
  return (v: string): number => {
    const n = Number(v);
    // A value the command line cannot take is a usage error (exit 2), like a missing one.
    if (!Number.isInteger(n) || n < 0) throw new CliError(`${name} must be a whole number >= 0, got "${v}"`, 2);
    return n;
  };
}
