import { Command } from 'commander';
import { resolve } from 'node:path';
import { keyFileFor } from '../store';
import { BackupError, writeBackup } from '../store/backup';
import { CliError, configFrom, print } from './context';

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
      const started = performance.now();
      const path = resolve(dest);
      let summary;
      try {
        summary = writeBackup({
          dbPath: config.store.path,
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
        { path, schema_version: summary.schemaVersion, bytes: summary.bytes, accounts: summary.accounts, calls: summary.calls, seconds },
        () =>
          `backup written to ${path} in ${seconds} s: voice-alert.db (${summary.bytes} bytes, schema ${summary.schemaVersion}, ` +
          `${summary.accounts} accounts, ${summary.calls} calls) and secret.key`,
      );
    });
}
