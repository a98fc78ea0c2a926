import { Command } from 'commander';
import { resolve } from 'node:path';
import { migrateToPostgresJson } from '../outward';
import { keyFileFor } from '../store';
import { copyToPostgres, CopyRefusedError, type CopiedTable } from '../store/copy-to-postgres';
import { openMigratedPostgres, openPostgres } from '../store/sql/postgres/database';
import { CliError, configFrom, print } from './context';

/**
 * The copy is one transaction, and the PostgreSQL store bounds a whole transaction (and each
 * of its statements) by its `timeoutMs`: generous, so a large database's copy is never cut
 * short. Reaching and migrating the database keeps store.timeout_ms, so a wrong --to fails soon.
 */
const COPY_TIMEOUT_MS = 60 * 60_000;

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
    .action(async (opts: { from: string; to: string; json?: boolean }, c: Command) => {
      const config = configFrom(c);
      if (!/^postgres(ql)?:\/\/\S+$/.test(opts.to)) throw new CliError(`--to must be a postgres:// URL, got "${opts.to.replace(/\/\/[^@/]*@/, '//…@')}"`);
      const from = resolve(opts.from);
      const started = performance.now();
      let tables: CopiedTable[];
      try {
        // Called only once the file passed its checks: a refused copy never touches PostgreSQL.
        tables = await copyToPostgres({ from }, async (work) => {
          // A brand-new database is migrated first (its own transaction), as the appliance would.
          await (await openMigratedPostgres({ url: opts.to, timeoutMs: config.store.timeout_ms, poolSize: 2 })).close();
          const target = await openPostgres({ url: opts.to, timeoutMs: Math.max(config.store.timeout_ms, COPY_TIMEOUT_MS), poolSize: 2 });
          try {
            return await target.transaction(work);
          } finally {
            await target.close();
          }
        });
      } catch (e) {
        if (e instanceof CopyRefusedError) throw new CliError(e.message);
        throw new CliError(`copy failed, nothing was written: ${(e as Error).message}`);
      }
      const keyFile = keyFileFor(from);
      const seconds = Math.round(performance.now() - started) / 1000;
      const rows = tables.reduce((n, t) => n + t.rows, 0);
      print(Boolean(opts.json), migrateToPostgresJson(from, tables, rows, seconds, keyFile), () =>
        [
          ...tables.map((t) => `${t.table.padEnd(22)} ${t.rows}`),
          `copied ${rows} rows in ${seconds} s.`,
          `Every appliance on this database needs the secret.key at ${keyFile} (copy it beside its store.path, mode 0600), then set store.url.`,
        ].join('\n'),
      );
    });
}
