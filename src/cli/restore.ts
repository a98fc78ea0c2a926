import { Command } from 'commander';
import { dirname, resolve } from 'node:path';
import { restoreJson } from '../outward';
import { keyFileFor } from '../store';
import { BackupError, restoreBackup } from '../store/backup';
import { POSTGRES_BACKUP } from './backup';
import { CliError, configFrom, print } from './context';

/**
 * `voice-alert restore SRC`: a folder written by `backup` into the configured data folder,
 * which must be empty (stop the service and move the old folder aside first). The next
 * `serve` migrates an older schema as usual.
 */
export function restoreCommand(): Command {
  return new Command('restore')
    .description("put a backup folder back into the (empty) data folder of store.path; the service must be stopped")
    .argument('<src>', 'folder written by voice-alert backup')
    .option('--json', 'print JSON')
    .action((src: string, opts, c: Command) => {
      const config = configFrom(c);
      if (config.store.url) throw new CliError(POSTGRES_BACKUP);
      const from = resolve(src);
      const dbPath = resolve(config.store.path);
      let summary;
      try {
        summary = restoreBackup({ src: from, dbPath, keyFile: keyFileFor(dbPath) });
      } catch (e) {
        if (e instanceof BackupError) throw new CliError(e.message);
        throw e;
      }
      print(
        opts.json,
        restoreJson(from, dirname(dbPath), summary),
        () =>
          `restored ${from} into ${dirname(dbPath)}: schema ${summary.schemaVersion}, ${summary.accounts} accounts, ` +
          `${summary.calls} calls, secret.key (0600); start the service now`,
      );
    });
}
