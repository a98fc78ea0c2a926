import type { Database } from 'bun:sqlite';
import type { Logger } from '../log';
import type { SqlConnection } from './sql/connection';
import { postgresDdl } from './sql/postgres/ddl';
import { LATEST_VERSION, MIGRATIONS } from './migration-steps';

export class DatabaseTooNewError extends Error {
  override readonly name = 'DatabaseTooNewError';
}

function refuseTooNew(current: number): void {
  if (current > LATEST_VERSION) {
    throw new DatabaseTooNewError(
      `database schema version ${current} is newer than this program understands (${LATEST_VERSION}); upgrade voice-alert`,
    );
  }
}

/**
 * Brings a SQLite file up to date, one IMMEDIATE transaction per step: another process
 * waits instead of migrating beside us. Synchronous: it runs once while the store opens,
 * before anything is served.
 */
export function migrateSqlite(db: Database, log?: Logger): void {
  const current = (db.query('PRAGMA user_version').get() as { user_version: number }).user_version;
  refuseTooNew(current);
  for (const step of MIGRATIONS) {
    if (step.version <= current) continue;
    db.run('BEGIN IMMEDIATE');
    try {
      db.run(step.sql);
      db.run(`PRAGMA user_version = ${step.version}`);
      db.run('COMMIT');
    } catch (e) {
      if (db.inTransaction) db.run('ROLLBACK');
      throw e;
    }
    log?.info({ version: step.version, step: step.name }, 'database migrated');
  }
}

/**
 * Brings a PostgreSQL database up to date: every missing step in one transaction (the
 * caller's) under an advisory lock, so appliances that start together on one database
 * migrate it once; the others wait and find it done.
 */
export async function migratePostgres(tx: SqlConnection, log?: Logger): Promise<void> {
  await tx.exec(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
  await tx.exec('CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)');
  const row = (await tx.query('SELECT max(version) AS v FROM schema_version').get()) as { v: number | null };
  const current = row.v ?? 0;
  refuseTooNew(current);
  for (const step of MIGRATIONS) {
    if (step.version <= current) continue;
    await tx.exec(step.postgres ?? postgresDdl(step.sql));
    await tx.query('INSERT INTO schema_version (version) VALUES ($v)').run({ v: step.version });
    log?.info({ version: step.version, step: step.name }, 'database migrated');
  }
}

/** Any number: it only has to be the same on every appliance ("VA" in ASCII). */
const MIGRATION_LOCK = 0x5641;
