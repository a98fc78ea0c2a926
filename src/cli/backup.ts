import { Command } from 'commander';
import { resolve } from 'node:path';
import { backupJson } from '../outward';
import { keyFileFor } from '../store';
import { BackupError, writeBackup } from '../store/backup';
import { CliError, configFrom, print } from './context';

/** backup and restore copy the SQLite file; a PostgreSQL store has its own tools. */
export const POSTGRES_BACKUP =
  'store.url is set: the store is PostgreSQL, which this command does not copy; back it up with pg_dump or pg_basebackup, and keep a copy of secret.key (docs/high-availability.md)';

/**
 * `voice-alert backup DEST`: a consistent copy of the live database and secret.key into a
 * new (or empty) folder, while the service runs. Safe to run from cron; exit 1 on failure.
 */
export function backupCommand(): Command {
  return new Command('backup')
    .description('copy the database and secret.key into DEST (a new or empty folder) while the service runs')
    .argument('<dest>', 'folder to write voice-alert.db and secret.key into')
    .option('--json', 'print JSON')
    .action((dest: string, opts, c: Command) => {
      const config = configFrom(c);
      if (config.store.url) throw new CliError(POSTGRES_BACKUP);
      const started = performance.now();
      const path = resolve(dest);
      let summary;
      try {
        summary = writeBackup({
          dbPath: resolve(config.store.path),
          keyFile: keyFileFor(config.store.path),
          dest: path,
          busyTimeoutMs: config.store.busy_timeout_ms,
        });
      } catch (e) {
        if (e instanceof BackupError) throw new CliError(e.message);
        throw e;
      }
      const seconds = Math.round(performance.now() - started) / 1000;
      print(
        opts.json,
        backupJson(path, summary, seconds),
        () =>
          `backup written to ${path} in ${seconds} s: voice-alert.db (${summary.bytes} bytes, schema ${summary.schemaVersion}, ` +
          `${summary.accounts} accounts, ${summary.calls} calls) and secret.key`,
      );
    });
}
