import { Command } from 'commander';
import { resolve } from 'node:path';
import { keyFileFor } from '../store';
import { copyToPostgres, CopyRefusedError } from '../store/copy-to-postgres';
import { CliError, configFrom, print } from './context';

/**
 * `voice-alert migrate-to-postgres --from PATH --to URL`: a SQLite appliance's whole
 * database into an empty PostgreSQL one (store/copy-to-postgres.ts), before switching the
 * appliance to `store.url`. Stop the appliance first: calls accepted during the copy would
 * stay behind in the file.
 */
export function migrateToPostgresCommand(): Command {
  return new Command('migrate-to-postgres')
    .description("copy a SQLite appliance's database (accounts, keys, history, queue, alerts, everything) into an empty PostgreSQL database")
    .requiredOption('--from <path>', 'the SQLite database (store.path of the old appliance)')
    .requiredOption('--to <url>', 'postgres://user:password@host/database, empty')
    .option('--json', 'print JSON')
    .action((opts: { from: string; to: string; json?: boolean }, c: Command) => {
      const config = configFrom(c);
      if (!/^postgres(ql)?:\/\/\S+$/.test(opts.to)) throw new CliError(`--to must be a postgres:// URL, got "${opts.to.replace(/\/\/[^@/]*@/, '//…@')}"`);
      const from = resolve(opts.from);
      const started = performance.now();
      let tables;
      try {
        tables = copyToPostgres({ from, to: opts.to, statementTimeoutMs: Math.max(config.store.busy_timeout_ms, 60_000) });
      } catch (e) {
        if (e instanceof CopyRefusedError) throw new CliError(e.message);
        throw new CliError(`copy failed, nothing was written: ${(e as Error).message}`);
      }
      const keyFile = keyFileFor(from);
      const seconds = Math.round(performance.now() - started) / 1000;
      const rows = tables.reduce((n, t) => n + t.rows, 0);
      print(Boolean(opts.json), { from, tables, rows, seconds, secret_key: keyFile }, () =>
        [
          ...tables.map((t) => `${t.table.padEnd(22)} ${t.rows}`),
          `copied ${rows} rows in ${seconds} s.`,
          `Every appliance on this database needs the secret.key at ${keyFile} (copy it beside its store.path, mode 0600), then set store.url.`,
        ].join('\n'),
      );
    });
}
